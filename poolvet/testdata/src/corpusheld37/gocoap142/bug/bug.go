// Package bug reproduces the shape of plgd-dev/go-coap#142
// (https://github.com/plgd-dev/go-coap/pull/142): the TCP client's Get
// received a pooled response, deferred its release to the message pool and
// returned ConvertTo(resp). ConvertTo copied code, token and options but
// handed the pooled message's body reader through as is; that reader reads
// the pooled raw receive buffer, which the next Unmarshal of the recycled
// message overwrites. The caller thus got a body aliasing pooled memory after
// the deferred Put (race detector report). The fix reads the body into a
// fresh slice inside ConvertTo.
// Check: useafterput (the return in Get that hands out the body still owned
// by the message released by the deferred ReleaseMessage).
package bug

import (
	"bytes"
	"context"
	"io"
	"sync"
)

// CommonMessage is the public, non-pooled message type.
type CommonMessage struct {
	Context context.Context
	Code    uint8
	Token   []byte
	Body    io.ReadSeeker
}

// Message is the pooled message.
type Message struct {
	ctx     context.Context
	code    uint8
	token   []byte
	rawData []byte
	payload io.ReadSeeker
}

var messagePool sync.Pool

// Reset clears the message for reuse, keeping the raw buffer.
func (r *Message) Reset() {
	r.ctx = nil
	r.code = 0
	r.token = r.token[:0]
	r.rawData = r.rawData[:0]
	r.payload = nil
}

func (r *Message) Context() context.Context { return r.ctx }
func (r *Message) Code() uint8              { return r.code }
func (r *Message) Body() io.ReadSeeker      { return r.payload }

// Token returns a copy of the token.
func (r *Message) Token() []byte {
	if r.token == nil {
		return nil
	}
	return append([]byte(nil), r.token...)
}

// Unmarshal copies data into the pooled raw buffer and points the body at it.
func (r *Message) Unmarshal(data []byte) (int, error) {
	r.Reset()
	r.rawData = append(r.rawData[:0], data...)
	if len(r.rawData) < 2 {
		return 0, io.ErrUnexpectedEOF
	}
	r.code = r.rawData[0]
	tkl := int(r.rawData[1])
	if len(r.rawData) < 2+tkl {
		return 0, io.ErrUnexpectedEOF
	}
	r.token = append(r.token[:0], r.rawData[2:2+tkl]...)
	if payload := r.rawData[2+tkl:]; len(payload) > 0 {
		r.payload = bytes.NewReader(payload)
	}
	return len(data), nil
}

// AcquireMessage returns an empty Message from the pool.
func AcquireMessage(ctx context.Context) *Message {
	v := messagePool.Get()
	if v == nil {
		return &Message{rawData: make([]byte, 0, 256), ctx: ctx}
	}
	r := v.(*Message)
	r.Reset()
	r.ctx = ctx
	return r
}

// ReleaseMessage returns req to the pool; it must not be used afterwards.
func ReleaseMessage(req *Message) {
	req.Reset()
	if cap(req.rawData) > 64*1024 {
		return
	}
	messagePool.Put(req)
}

// ConvertTo converts a pool message to a common message.
func ConvertTo(m *Message) *CommonMessage {
	return &CommonMessage{
		Context: m.Context(),
		Code:    m.Code(),
		Token:   m.Token(),
		Body:    m.Body(),
	}
}

// ClientConn receives pooled responses.
type ClientConn struct {
	recv func() []byte
}

// Get performs a request and returns the pooled response.
func (cc *ClientConn) Get(ctx context.Context, path string) (*Message, error) {
	resp := AcquireMessage(ctx)
	if _, err := resp.Unmarshal(cc.recv()); err != nil {
		ReleaseMessage(resp)
		return nil, err
	}
	return resp, nil
}

// ClientTCP is the public client wrapping ClientConn.
type ClientTCP struct {
	cc *ClientConn
}

// Get returns the response as a common message.
func (c *ClientTCP) Get(ctx context.Context, path string) (*CommonMessage, error) {
	resp, err := c.cc.Get(ctx, path)
	if err != nil {
		return nil, err
	}
	defer ReleaseMessage(resp)
	return ConvertTo(resp), err // want `useafterput`
}
