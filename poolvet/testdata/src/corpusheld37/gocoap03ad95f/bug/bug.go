// Package bug reproduces the shape of plgd-dev/go-coap commit 03ad95f
// (https://github.com/plgd-dev/go-coap/commit/03ad95f): "tcp/pool: limit used
// memory by pool". The TCP pooled Message keeps two scratch buffers, rawData
// (grown by Unmarshal to the size of the received frame) and rawMarshalData
// (grown by Marshal to the size of the encoded frame). Reset only truncated
// them to length zero and ReleaseMessage put the message back, so one large
// frame pinned a large buffer in the pool for good. The fix makes Reset swap
// buffers above maxMessageBufferSize for fresh small ones before the Put.
// Check: unbounded (the Put in ReleaseMessage of a message whose buffers can
// have grown without limit).
package bug

import (
	"context"
	"sync"
)

const maxMessageBufferSize = 2048

var messagePool sync.Pool

// Message is a pooled CoAP-over-TCP message.
type Message struct {
	code    uint8
	token   []byte
	payload []byte

	rawData        []byte
	rawMarshalData []byte

	ctx        context.Context
	isModified bool
}

// Reset clears the message for the next reuse.
func (r *Message) Reset() {
	r.code = 0
	r.token = r.token[:0]
	r.payload = nil
	r.rawData = r.rawData[:0]
	r.rawMarshalData = r.rawMarshalData[:0]
	r.isModified = false
}

// Context returns the message context.
func (r *Message) Context() context.Context { return r.ctx }

// Unmarshal copies the frame into rawData and decodes it.
func (r *Message) Unmarshal(data []byte) (int, error) {
	r.Reset()
	if len(r.rawData) < len(data) {
		r.rawData = append(r.rawData, make([]byte, len(data)-len(r.rawData))...)
	}
	copy(r.rawData, data)
	r.rawData = r.rawData[:len(data)]
	if len(r.rawData) > 0 {
		r.code = r.rawData[0]
		r.payload = r.rawData[1:]
	}
	return len(data), nil
}

// Marshal encodes the message into rawMarshalData.
func (r *Message) Marshal() ([]byte, error) {
	size := 1 + len(r.token) + len(r.payload)
	if len(r.rawMarshalData) < size {
		r.rawMarshalData = append(r.rawMarshalData, make([]byte, size-len(r.rawMarshalData))...)
	}
	r.rawMarshalData = r.rawMarshalData[:size]
	r.rawMarshalData[0] = r.code
	n := 1 + copy(r.rawMarshalData[1:], r.token)
	copy(r.rawMarshalData[n:], r.payload)
	return r.rawMarshalData, nil
}

// AcquireMessage returns an empty Message from the pool.
func AcquireMessage(ctx context.Context) *Message {
	v := messagePool.Get()
	if v == nil {
		return &Message{
			rawData:        make([]byte, 256),
			rawMarshalData: make([]byte, 256),
			ctx:            ctx,
		}
	}
	r := v.(*Message)
	r.Reset()
	r.ctx = ctx
	return r
}

// ReleaseMessage returns req to the pool; it must not be accessed afterwards.
func ReleaseMessage(req *Message) {
	req.Reset()
	req.ctx = nil
	messagePool.Put(req) // want `unbounded`
}
