// Package bug reproduces the shape of golang/protobuf#953
// (https://github.com/golang/protobuf/issues/953, "proto.Buffer Reset() not fully"): Istio's
// pilot util.MessageToAnyWithError was changed to marshal through a deterministic
// *proto.Buffer taken from a sync.Pool. A deferred closure Resets the buffer and puts it
// back, but the returned Any keeps Value: b.Bytes(), the buffer's own backing array.
// Reset only truncates it, so the next marshal from the pool overwrites the bytes of Anys
// already handed to clients, which then fail to decode ("can't skip unknown wire type").
// As the report says, detaching the slice with b.SetBuf(nil) before the Put makes it work.
// Check: useafterput (the Any returned with Value pointing into the pooled Buffer that the
// deferred closure puts back).
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
)

// ---- proto ----

type Message interface {
	MessageName() string
	Fields() map[uint64][]byte
}

// Buffer is a reusable marshalling buffer, like proto.Buffer.
type Buffer struct {
	buf           []byte
	deterministic bool
}

func NewBuffer(e []byte) *Buffer { return &Buffer{buf: e} }

func (p *Buffer) SetDeterministic(deterministic bool) { p.deterministic = deterministic }

// Reset truncates the buffer but keeps its backing array.
func (p *Buffer) Reset() { p.buf = p.buf[:0] }

// SetBuf replaces the backing slice.
func (p *Buffer) SetBuf(s []byte) { p.buf = s }

// Bytes returns the contents of the buffer (not a copy).
func (p *Buffer) Bytes() []byte { return p.buf }

func (p *Buffer) Marshal(m Message) error {
	if m == nil {
		return errors.New("proto: Marshal called with nil")
	}
	for tag, v := range m.Fields() {
		p.buf = binary.AppendUvarint(p.buf, tag<<3|2)
		p.buf = binary.AppendUvarint(p.buf, uint64(len(v)))
		p.buf = append(p.buf, v...)
	}
	return nil
}

// Any mirrors any.Any.
type Any struct {
	TypeUrl string
	Value   []byte
}

// ---- pilot/pkg/networking/util ----

const maxPooledBufferSize = 64 << 10

var pool = sync.Pool{
	New: func() interface{} {
		b := NewBuffer(nil)
		b.SetDeterministic(true)
		return b
	},
}

// MessageToAnyWithError converts from proto message to proto Any.
func MessageToAnyWithError(msg Message) (*Any, error) {
	b := pool.Get().(*Buffer)
	defer func() {
		b.Reset()
		if cap(b.Bytes()) > maxPooledBufferSize {
			return // do not pin huge buffers in the pool
		}
		pool.Put(b)
	}()
	err := b.Marshal(msg)
	if err != nil {
		return nil, err
	}
	resp := &Any{
		TypeUrl: "type.googleapis.com/" + msg.MessageName(),
		Value:   b.Bytes(),
	}
	return resp, nil // want `useafterput`
}
