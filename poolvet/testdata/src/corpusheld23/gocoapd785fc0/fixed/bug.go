// Package bug reproduces the shape of plgd-dev/go-coap commit d785fc0
// (https://github.com/plgd-dev/go-coap/commit/d785fc062095c3252e74fd98a87ee2082f2f341e,
// "fix - reset Message.Payload"): CoAP messages are recycled through
// Pool.messagePool. ReleaseMessage enforces the pool count limit, calls
// Message.Reset, clears the context and puts the message back. Reset clears the
// token, code, options, message id, type, body and trims the scratch buffers,
// but leaves msg.Payload pointing at the previous datagram's payload (a slice
// of the old unmarshal buffer). A reused message that gets no new payload still
// carries the old one. The fix adds r.msg.Payload = nil to Reset.
// Check: noreset (fixed twin: Reset also drops the payload; no report expected).
package bug

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

const valueBufferSize = 256

// Codes is a CoAP code.
type Codes uint8

// Type is a CoAP message type.
type Type int16

const unsetType Type = -1

// Option is one CoAP option.
type Option struct {
	ID    uint16
	Value []byte
}

// RawMessage is the decoded CoAP message.
type RawMessage struct {
	Token     []byte
	Code      Codes
	Options   []Option
	MessageID int32
	Type      Type
	Payload   []byte
}

// Decoder decodes a datagram into a RawMessage.
type Decoder interface {
	Decode(data []byte, m *RawMessage) (int, error)
}

// Message is a pooled CoAP message.
type Message struct {
	ctx             context.Context
	msg             RawMessage
	isModified      bool
	valueBuffer     []byte
	origValueBuffer []byte
	body            io.ReadSeeker
	sequence        uint64

	bufferUnmarshal []byte
	bufferMarshal   []byte
}

// NewMessage allocates a message.
func NewMessage(ctx context.Context) *Message {
	valueBuffer := make([]byte, valueBufferSize)
	return &Message{
		ctx: ctx,
		msg: RawMessage{
			Options:   make([]Option, 0, 16),
			MessageID: -1,
			Type:      unsetType,
		},
		valueBuffer:     valueBuffer,
		origValueBuffer: valueBuffer,
		bufferUnmarshal: make([]byte, 256),
		bufferMarshal:   make([]byte, 256),
	}
}

// Reset prepares the message for reuse.
func (r *Message) Reset() {
	r.msg.Token = nil
	r.msg.Code = 0
	r.msg.Options = r.msg.Options[:0]
	r.msg.MessageID = -1
	r.msg.Type = unsetType
	r.msg.Payload = nil
	r.valueBuffer = r.origValueBuffer
	r.body = nil
	r.isModified = false
	if cap(r.bufferMarshal) > 1024 {
		r.bufferMarshal = make([]byte, 256)
	}
	if cap(r.bufferUnmarshal) > 1024 {
		r.bufferUnmarshal = make([]byte, 256)
	}
	r.isModified = false
}

// UnmarshalWithDecoder decodes data into r.
func (r *Message) UnmarshalWithDecoder(decoder Decoder, data []byte) (int, error) {
	if len(r.bufferUnmarshal) < len(data) {
		r.bufferUnmarshal = append(r.bufferUnmarshal, make([]byte, len(data)-len(r.bufferUnmarshal))...)
	}
	copy(r.bufferUnmarshal, data)
	r.body = nil
	r.bufferUnmarshal = r.bufferUnmarshal[:len(data)]
	n, err := decoder.Decode(r.bufferUnmarshal, &r.msg)
	if err != nil {
		return n, err
	}
	if len(r.msg.Payload) > 0 {
		r.body = bytes.NewReader(r.msg.Payload)
	}
	return n, err
}

// Pool recycles messages.
type Pool struct {
	currentMessagesInPool atomic.Int64
	messagePool           sync.Pool
	maxNumMessages        uint32
}

// New creates a message pool.
func New(maxNumMessages uint32) *Pool {
	return &Pool{maxNumMessages: maxNumMessages}
}

// AcquireMessage returns an empty Message from the pool.
func (p *Pool) AcquireMessage(ctx context.Context) *Message {
	v := p.messagePool.Get()
	if v == nil {
		return NewMessage(ctx)
	}
	r, ok := v.(*Message)
	if !ok {
		panic(fmt.Errorf("invalid message type(%T) for pool", v))
	}
	p.currentMessagesInPool.Add(-1)
	r.ctx = ctx
	return r
}

// ReleaseMessage returns req to the pool.
func (p *Pool) ReleaseMessage(req *Message) {
	for {
		v := p.currentMessagesInPool.Load()
		if v >= int64(p.maxNumMessages) {
			return
		}
		if p.currentMessagesInPool.CompareAndSwap(v, v+1) {
			break
		}
	}
	req.Reset()
	req.ctx = nil
	p.messagePool.Put(req)
}
