// Package fixed is the fix of aceld/zinx#308
// (https://github.com/aceld/zinx/issues/308) as zinx documents it for pool
// mode: a handler that needs the request in another goroutine hands it a
// Copy, a fresh Request with its own context map and message, so the pooled
// request can be recycled when the handlers return.
package fixed

import (
	"bytes"
	"fmt"
	"math"
	"sync"
	"time"
)

type Connection struct{ id uint64 }

type Message struct {
	id   uint32
	data []byte
}

type Request struct {
	mu       sync.RWMutex
	conn     *Connection
	msg      *Message
	needNext bool
	index    int8
	keys     map[string]any
}

var RequestPool = sync.Pool{New: func() any { return allocateRequest() }}

func allocateRequest() *Request {
	return &Request{needNext: true, index: -1}
}

// Reset prepares a pooled request for a new message.
func (r *Request) Reset(conn *Connection, msg *Message) {
	r.conn = conn
	r.msg = msg
	r.needNext = true
	r.index = -1
	r.keys = nil
}

func GetRequest(conn *Connection, msg *Message) *Request {
	r := RequestPool.Get().(*Request)
	r.Reset(conn, msg)
	return r
}

func PutRequest(r *Request) {
	r.conn, r.msg, r.keys = nil, nil, nil
	RequestPool.Put(r)
}

// Copy returns a request that shares nothing with r: no connection, its
// own context map and its own copy of the message.
func (r *Request) Copy() *Request {
	n := &Request{needNext: false, index: math.MaxInt8}
	r.mu.RLock()
	n.keys = make(map[string]any, len(r.keys))
	for k, v := range r.keys {
		n.keys[k] = v
	}
	r.mu.RUnlock()
	if r.msg != nil {
		n.msg = &Message{id: r.msg.id, data: bytes.Clone(r.msg.data)}
	}
	return n
}

func (r *Request) Set(key string, value any) {
	r.mu.Lock()
	if r.keys == nil {
		r.keys = make(map[string]any)
	}
	r.keys[key] = value
	r.mu.Unlock()
}

func (r *Request) Get(key string) (any, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, ok := r.keys[key]
	return v, ok
}

// Poll1 is a router handler that continues the work in a goroutine.
func Poll1(request *Request) {
	request.Set("num", 1)
	cp := request.Copy()
	go Poll3(cp)
}

func Poll3(request *Request) {
	time.Sleep(3 * time.Second)
	v, _ := request.Get("num")
	fmt.Printf("num: %v\n", v)
}

type MsgHandle struct{}

func (mh *MsgHandle) doMsgHandlerSlices(request *Request) {
	Poll1(request)
	// the handlers are done: recycle the request
	PutRequest(request)
}

func (mh *MsgHandle) serve(conn *Connection, msgs []*Message) {
	for _, msg := range msgs {
		mh.doMsgHandlerSlices(GetRequest(conn, msg))
	}
}
