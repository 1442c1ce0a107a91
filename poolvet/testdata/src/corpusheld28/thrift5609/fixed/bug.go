// Package bug reproduces the shape of apache/thrift THRIFT-5609, fixed in
// commit 7ae180bb1eaea8bdfd6d5714aa90b8445165ff1c
// (https://github.com/apache/thrift/commit/7ae180bb1eaea8bdfd6d5714aa90b8445165ff1c):
// TDeserializerPool hands out pooled TDeserializers whose ReadString resets
// only the memory transport. With the JSON protocol, a failed read leaves
// entries on the protocol's parse-context stack and bytes in its buffered
// reader; the deserializer goes back to the pool in that state, and every
// later read through it fails. The fix gives the protocol a Reset and calls
// it (through a small interface) before each use.
//
// Check: noreset (the deserializer is put back with its protocol state from
// the previous, failed read; reported at the Put).
package bug

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"sync"
)

const maxPooledTransport = 64 << 10

// TMemoryBuffer is the in-memory transport.
type TMemoryBuffer struct {
	*bytes.Buffer
}

func NewTMemoryBufferLen(size int) *TMemoryBuffer {
	return &TMemoryBuffer{Buffer: bytes.NewBuffer(make([]byte, 0, size))}
}

// TProtocol is the part of the protocol used by generated structs.
type TProtocol interface {
	ReadStructBegin(ctx context.Context) error
	ReadField(ctx context.Context) (string, error)
	ReadStructEnd(ctx context.Context) error
}

// TStruct is a generated message.
type TStruct interface {
	Read(ctx context.Context, p TProtocol) error
}

type parseContext int

const (
	contextTopLevel parseContext = iota
	contextInObject
)

type jsonContextStack []parseContext

func (s *jsonContextStack) push(v parseContext) { *s = append(*s, v) }

func (s *jsonContextStack) pop() (parseContext, bool) {
	if len(*s) == 0 {
		return 0, false
	}
	v := (*s)[len(*s)-1]
	*s = (*s)[:len(*s)-1]
	return v, true
}

// TJSONProtocol keeps parse state between calls.
type TJSONProtocol struct {
	trans             *TMemoryBuffer
	reader            *bufio.Reader
	parseContextStack jsonContextStack
}

func NewTJSONProtocol(t *TMemoryBuffer) *TJSONProtocol {
	p := &TJSONProtocol{trans: t, reader: bufio.NewReader(t)}
	p.resetContextStack()
	return p
}

func (p *TJSONProtocol) resetContextStack() {
	p.parseContextStack = jsonContextStack{contextTopLevel}
}

// Reset resets the protocol's internal state so that an instance reused
// after an error starts clean.
func (p *TJSONProtocol) Reset() {
	p.resetContextStack()
	p.reader.Reset(p.trans)
}

func (p *TJSONProtocol) ReadStructBegin(ctx context.Context) error {
	if len(p.parseContextStack) != 1 {
		return errors.New("thrift: unexpected parse context")
	}
	b, err := p.reader.ReadByte()
	if err != nil || b != '{' {
		return errors.New("thrift: expected '{'")
	}
	p.parseContextStack.push(contextInObject)
	return nil
}

func (p *TJSONProtocol) ReadField(ctx context.Context) (string, error) {
	s, err := p.reader.ReadString(',')
	if err != nil {
		return "", err
	}
	return s[:len(s)-1], nil
}

func (p *TJSONProtocol) ReadStructEnd(ctx context.Context) error {
	b, err := p.reader.ReadByte()
	if err != nil || b != '}' {
		return errors.New("thrift: expected '}'")
	}
	p.parseContextStack.pop()
	return nil
}

// TDeserializer reads messages from strings or bytes.
type TDeserializer struct {
	Transport *TMemoryBuffer
	Protocol  TProtocol
}

type reseter interface {
	Reset()
}

func (t *TDeserializer) ReadString(ctx context.Context, msg TStruct, s string) (err error) {
	t.Transport.Reset()
	if r, ok := t.Protocol.(reseter); ok {
		r.Reset()
	}

	if _, err = t.Transport.WriteString(s); err != nil {
		return
	}
	if err = msg.Read(ctx, t.Protocol); err != nil {
		return
	}
	return
}

func (t *TDeserializer) Read(ctx context.Context, msg TStruct, b []byte) (err error) {
	t.Transport.Reset()
	if r, ok := t.Protocol.(reseter); ok {
		r.Reset()
	}

	if _, err = t.Transport.Write(b); err != nil {
		return
	}
	if err = msg.Read(ctx, t.Protocol); err != nil {
		return
	}
	return
}

// TDeserializerPool is the thread-safe version of TDeserializer.
type TDeserializerPool struct {
	pool sync.Pool
}

func NewTDeserializerPoolSizeFactory(size int) *TDeserializerPool {
	return &TDeserializerPool{
		pool: sync.Pool{
			New: func() any {
				transport := NewTMemoryBufferLen(size)
				return &TDeserializer{
					Transport: transport,
					Protocol:  NewTJSONProtocol(transport),
				}
			},
		},
	}
}

func (t *TDeserializerPool) put(d *TDeserializer) {
	if d.Transport.Cap() > maxPooledTransport {
		return
	}
	t.pool.Put(d)
}

func (t *TDeserializerPool) ReadString(ctx context.Context, msg TStruct, s string) error {
	d := t.pool.Get().(*TDeserializer)
	defer t.put(d)
	return d.ReadString(ctx, msg, s)
}

func (t *TDeserializerPool) Read(ctx context.Context, msg TStruct, b []byte) error {
	d := t.pool.Get().(*TDeserializer)
	defer t.put(d)
	return d.Read(ctx, msg, b)
}
