// Source: https://github.com/istio/istio/pull/10026 (fixes https://github.com/istio/istio/issues/9560),
// commit fbc4b7b540cb2094af31f46d688116b556467b90, mixer/pkg/protobuf/yaml/encoder.go and pool.go.
//
// Bug: Encoder.EncodeBytes takes a *proto.Buffer from the package's
// sync.Pool (GetBuffer), defers PutBuffer(buf) (which Resets the buffer and
// puts it back), and returns buf.Bytes(). The returned slice aliases the
// pooled buffer's backing array, so the next EncodeBytes call overwrote the
// bytes already handed out: handler configs in a config snapshot overwrote
// each other (only visible with >= 3 handlers). A second, unrelated leak:
// the packed sint32 branch of visit returned on a bad element without
// putting tmpBuffer back.
//
// Fix: copy buf.Bytes() into a fresh slice before returning, and put
// tmpBuffer back on the error path.
//
// Check: useafterput (the return of buf.Bytes() lets memory of a buffer that
// the deferred PutBuffer returns to the pool outlive EncodeBytes)
package bug

import (
	"fmt"
	"sync"
)

// Buffer is a trimmed copy of github.com/gogo/protobuf/proto.Buffer.
type Buffer struct {
	buf []byte
}

func NewBuffer(e []byte) *Buffer { return &Buffer{buf: e} }

func (p *Buffer) Reset() { p.buf = p.buf[0:0] }

func (p *Buffer) Bytes() []byte { return p.buf }

func (p *Buffer) EncodeVarint(x uint64) error {
	for x >= 1<<7 {
		p.buf = append(p.buf, uint8(x&0x7f|0x80))
		x >>= 7
	}
	p.buf = append(p.buf, uint8(x))
	return nil
}

func (p *Buffer) EncodeZigzag32(x uint64) error {
	return p.EncodeVarint(uint64((uint32(x) << 1) ^ uint32((int32(x) >> 31))))
}

func (p *Buffer) EncodeRawBytes(b []byte) error {
	p.EncodeVarint(uint64(len(b)))
	p.buf = append(p.buf, b...)
	return nil
}

// pool.go

var bufferPool = sync.Pool{New: func() interface{} { return NewBuffer(make([]byte, 0, 256)) }}

// GetBuffer returns a new buffer from the pool
func GetBuffer() *Buffer {
	return bufferPool.Get().(*Buffer)
}

// PutBuffer returns the buffer back to the pool
func PutBuffer(b *Buffer) {
	b.Reset()
	bufferPool.Put(b)
}

// encoder.go

type FieldDescriptor struct {
	Name   string
	Number int
}

type MessageDescriptor struct {
	Name   string
	Fields []*FieldDescriptor
}

type Resolver interface {
	ResolveMessage(name string) *MessageDescriptor
}

// Encoder transforms yaml that represents protobuf data into []byte
type Encoder struct {
	resolver Resolver
}

func FindFieldByName(msg *MessageDescriptor, name string) *FieldDescriptor {
	for _, f := range msg.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// EncodeBytes creates []byte from a yaml representation of a proto.
func (e *Encoder) EncodeBytes(data map[string]interface{}, msgName string, skipUnknown bool) ([]byte, error) {
	buf := GetBuffer()
	defer func() { PutBuffer(buf) }()

	message := e.resolver.ResolveMessage(msgName)
	if message == nil {
		return nil, fmt.Errorf("cannot resolve message '%s'", msgName)
	}
	for k, v := range data {
		fd := FindFieldByName(message, k)
		if fd == nil {
			if skipUnknown {
				continue
			}
			return nil, fmt.Errorf("field '%s' not found in message '%s'", k, message.Name)
		}

		if err := e.visit(k, v, fd, skipUnknown, buf); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil // want `useafterput`
}

// visit encodes a packed repeated sint32 field.
func (e *Encoder) visit(name string, data interface{}, field *FieldDescriptor, skipUnknown bool, buffer *Buffer) error {
	if data == nil {
		return nil
	}
	v, ok := data.([]interface{})
	if !ok {
		return fmt.Errorf("%s: want []int, got %T", name, data)
	}

	tmpBuffer := GetBuffer()
	for i, iface := range v {
		c, ok := iface.(int)
		if !ok {
			return fmt.Errorf("%s[%d]: want int, got %T", name, i, iface)
		}
		_ = tmpBuffer.EncodeZigzag32(uint64(c))
	}
	_ = buffer.EncodeVarint(uint64(field.Number)<<3 | 2)
	_ = buffer.EncodeRawBytes(tmpBuffer.Bytes())
	PutBuffer(tmpBuffer)
	return nil
}
