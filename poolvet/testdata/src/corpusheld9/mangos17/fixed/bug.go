// Package fixed is the fixed twin of nanomsg/mangos-v1#17
// (https://github.com/nanomsg/mangos-v1/issues/17, "rep incorrectly reuses
// message header"): on receive, the REP protocol saved the request's Header
// slice as its backtrace instead of copying it, and the framework then freed
// the request message for reuse. The reply later carried whatever the next
// message had written into that recycled header: a use after free. The fix
// copies the header into a buffer the socket owns. The message cache is
// modeled here with a plain sync.Pool.
//
// Fix (as in mangos): the header is copied into r.backtracebuf before the
// message is freed. No check should report here.
package fixed

import (
	"encoding/binary"
	"errors"
	"sync"
)

const maxPooledBody = 64 << 10

type Message struct {
	Header []byte
	Body   []byte
}

var msgPool = sync.Pool{New: func() any {
	return &Message{Header: make([]byte, 0, 32), Body: make([]byte, 0, 1024)}
}}

func NewMessage(sz int) *Message {
	m := msgPool.Get().(*Message)
	m.Header = m.Header[:0]
	m.Body = m.Body[:0]
	if cap(m.Body) < sz {
		m.Body = make([]byte, 0, sz)
	}
	return m
}

// Free gives the message back to the cache.
func (m *Message) Free() {
	if cap(m.Body) > maxPooledBody {
		return
	}
	m.Header = m.Header[:0]
	m.Body = m.Body[:0]
	msgPool.Put(m)
}

var ErrProtoState = errors.New("incorrect protocol state")

type rep struct {
	recvq        chan *Message
	sendq        chan *Message
	backtracebuf []byte
	backtrace    []byte
}

func newRep() *rep {
	return &rep{
		recvq:        make(chan *Message, 8),
		sendq:        make(chan *Message, 8),
		backtracebuf: make([]byte, 0, 64),
	}
}

// Recv hands the request body to the application and keeps the backtrace
// (the peer id and request id) for the reply.
func (r *rep) Recv() []byte {
	m := <-r.recvq
	r.backtrace = append(r.backtracebuf[:0], m.Header...)
	body := make([]byte, len(m.Body))
	copy(body, m.Body)
	m.Free()
	return body
}

// Send addresses the reply with the saved backtrace.
func (r *rep) Send(b []byte) error {
	if r.backtrace == nil {
		return ErrProtoState
	}
	m := NewMessage(len(b))
	m.Header = append(m.Header, r.backtrace...)
	r.backtrace = nil
	m.Body = append(m.Body, b...)
	r.sendq <- m
	return nil
}

// deliver is the transport side: it builds an inbound request.
func (r *rep) deliver(pipeID, reqID uint32, body []byte) {
	m := NewMessage(len(body))
	m.Header = binary.BigEndian.AppendUint32(m.Header, pipeID)
	m.Header = binary.BigEndian.AppendUint32(m.Header, reqID|0x80000000)
	m.Body = append(m.Body, body...)
	r.recvq <- m
}
