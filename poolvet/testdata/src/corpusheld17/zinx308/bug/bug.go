// Package bug reproduces the shape of aceld/zinx#308
// (https://github.com/aceld/zinx/issues/308): once zinx took its Request
// objects from a sync.Pool, the message handler gave each Request back to
// the pool right after the router handlers returned. A handler that passed
// the request to a goroutine of its own (the project's own pool-mode
// example does `go Poll3(request)`) then read context values that the next
// message had already overwritten.
//
// Check: useafterput (hand-off to a goroutine nobody waits for, then the
// Put wrapper; the report is expected at `PutRequest(request)` in
// doMsgHandlerSlices). The router is called directly here; zinx calls it
// through a slice of handler funcs.
package bug

import (
	"fmt"
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
	go Poll3(request)
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
	PutRequest(request) // want `useafterput`
}

func (mh *MsgHandle) serve(conn *Connection, msgs []*Message) {
	for _, msg := range msgs {
		mh.doMsgHandlerSlices(GetRequest(conn, msg))
	}
}
