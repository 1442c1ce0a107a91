// Package bug reproduces the shape of lesismal/arpc commit 4bb8346
// (https://github.com/lesismal/arpc/commit/4bb8346eccb39e01efb98aeed827d64a5a8e458d,
// "fix MemPool bug on [Client.Call's Response Message]"): the client's
// handler.OnMessage parses an incoming message that was read into a buffer from
// the memory pool and defers memPut(msg) for every command. For a synchronous
// response it hands the very same message to the waiting Client.Call through
// session.done; OnMessage then returns, the deferred memPut recycles the buffer,
// and Call decodes the response from memory that the reader loop is already
// reusing for the next message.
// The fix puts the message back only on the paths that finish with it and lets
// Call put the response after decoding it.
// Check: useafterput (the pooled message is handed over a channel to another
// goroutine while a deferred Put is pending; report at the send).
package bug

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

// ---- memory pool ----

const MaxBodyLen = 64 * 1024

var memPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func memGet(size int) []byte {
	if size > MaxBodyLen {
		return make([]byte, size)
	}
	pb := memPool.Get().(*[]byte)
	if cap(*pb) < size {
		*pb = make([]byte, size)
	}
	return (*pb)[:size]
}

func memPut(b []byte) {
	if cap(b) > MaxBodyLen {
		return
	}
	b = b[:0]
	memPool.Put(&b)
}

// ---- protocol ----

const (
	HeadLen = 8

	RPCCmdReq byte = 1
	RPCCmdRsp byte = 2
	RPCCmdErr byte = 3
)

var ErrClientTimeout = errors.New("timeout")

// Message is a framed rpc message: cmd(1) async(1) pad(2) seq(4) body.
type Message []byte

func (m Message) Cmd() byte     { return m[0] }
func (m Message) IsAsync() bool { return m[1] == 1 }
func (m Message) Seq() uint32   { return binary.LittleEndian.Uint32(m[4:8]) }

func (m Message) Parse() (cmd byte, seq uint32, isAsync bool, body []byte) {
	return m.Cmd(), m.Seq(), m.IsAsync(), m[HeadLen:]
}

type rpcSession struct {
	seq  uint32
	done chan Message
}

type Context struct {
	Client  *Client
	Message Message
}

type Client struct {
	mux           sync.Mutex
	sessionMap    map[uint32]*rpcSession
	asyncHandlers map[uint32]func(*Context)
	chSend        chan Message
	seq           uint32
}

func (c *Client) addSession(seq uint32, s *rpcSession) {
	c.mux.Lock()
	c.sessionMap[seq] = s
	c.mux.Unlock()
}

func (c *Client) getSession(seq uint32) (*rpcSession, bool) {
	c.mux.Lock()
	s, ok := c.sessionMap[seq]
	c.mux.Unlock()
	return s, ok
}

func (c *Client) deleteSession(seq uint32) {
	c.mux.Lock()
	delete(c.sessionMap, seq)
	c.mux.Unlock()
}

func (c *Client) getAndDeleteAsyncHandler(seq uint32) (func(*Context), bool) {
	c.mux.Lock()
	h, ok := c.asyncHandlers[seq]
	delete(c.asyncHandlers, seq)
	c.mux.Unlock()
	return h, ok
}

func (c *Client) newReqMessage(method string, req any) Message {
	data, _ := json.Marshal(req)
	msg := Message(memGet(HeadLen + len(method) + 1 + len(data)))
	msg[0] = RPCCmdReq
	c.mux.Lock()
	c.seq++
	binary.LittleEndian.PutUint32(msg[4:8], c.seq)
	c.mux.Unlock()
	n := HeadLen + copy(msg[HeadLen:], method)
	msg[n] = 0
	copy(msg[n+1:], data)
	return msg
}

// Call makes a synchronous rpc call.
func (c *Client) Call(method string, req any, rsp any, timeout time.Duration) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()

	msg := c.newReqMessage(method, req)
	seq := msg.Seq()

	session := &rpcSession{seq: seq, done: make(chan Message, 1)}
	c.addSession(seq, session)
	defer c.deleteSession(seq)

	select {
	case c.chSend <- msg:
	case <-timer.C:
		return ErrClientTimeout
	}

	select {
	case msg = <-session.done:
	case <-timer.C:
		return ErrClientTimeout
	}

	switch msg.Cmd() {
	case RPCCmdRsp:
		switch vt := rsp.(type) {
		case *string:
			*vt = string(msg[HeadLen:])
		default:
			return json.Unmarshal(msg[HeadLen:], rsp)
		}
	case RPCCmdErr:
		return errors.New(string(msg[HeadLen:]))
	}
	return nil
}

type handler struct {
	routes map[string]func(*Context)
}

func (h *handler) OnMessage(c *Client, msg Message) {
	cmd, seq, isAsync, _ := msg.Parse()
	defer memPut(msg)
	switch cmd {
	case RPCCmdRsp, RPCCmdErr:
		if !isAsync {
			session, ok := c.getSession(seq)
			if ok {
				session.done <- msg // want `useafterput`
			}
		} else {
			if handler, ok := c.getAndDeleteAsyncHandler(seq); ok {
				handler(&Context{Client: c, Message: msg})
			}
		}
	default:
	}
}
