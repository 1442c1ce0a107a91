// Package bug reproduces the shape of plgd-dev/go-coap#249
// (https://github.com/plgd-dev/go-coap/pull/249, commit 231b8cd): "tcp/udp/dtls:
// set ctx to nil for released messages in pools". AcquireMessage stores the
// caller's context in the pooled Message, and ReleaseMessage called Reset,
// which clears code, token, options and payload but not ctx, before putting
// the message back. Every idle message in the pool therefore kept the
// context of its last request (and whatever that context references, such
// as the connection and request-scoped values) alive. The fix sets ctx to nil
// in ReleaseMessage before the Put.
// Check: noreset (the Put in ReleaseMessage of a message still holding the
// previous request's context).
package bug

import (
	"context"
	"sync"
	"sync/atomic"
)

const (
	maxMessagePool       = 10240
	maxMessageBufferSize = 2048
)

var (
	currentMessagesInPool int32
	messagePool           sync.Pool
)

// Message is a pooled CoAP message.
type Message struct {
	code    uint8
	token   []byte
	options []uint32
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
	r.options = r.options[:0]
	r.payload = nil
	if cap(r.rawData) > maxMessageBufferSize {
		r.rawData = make([]byte, 256)
	}
	if cap(r.rawMarshalData) > maxMessageBufferSize {
		r.rawMarshalData = make([]byte, 256)
	}
	r.rawData = r.rawData[:0]
	r.rawMarshalData = r.rawMarshalData[:0]
	r.isModified = false
}

// Context returns the context the message was acquired with.
func (r *Message) Context() context.Context { return r.ctx }

// SetCode sets the message code.
func (r *Message) SetCode(c uint8) {
	r.code = c
	r.isModified = true
}

// AcquireMessage returns an empty Message bound to ctx.
func AcquireMessage(ctx context.Context) *Message {
	v := messagePool.Get()
	if v == nil {
		return &Message{
			rawData:        make([]byte, 256),
			rawMarshalData: make([]byte, 256),
			ctx:            ctx,
		}
	}
	atomic.AddInt32(&currentMessagesInPool, -1)
	r := v.(*Message)
	r.ctx = ctx
	return r
}

// ReleaseMessage returns req to the pool; it must not be accessed afterwards.
func ReleaseMessage(req *Message) {
	v := atomic.LoadInt32(&currentMessagesInPool)
	if v >= maxMessagePool {
		return
	}
	atomic.AddInt32(&currentMessagesInPool, 1)
	req.Reset()
	messagePool.Put(req) // want `noreset`
}
