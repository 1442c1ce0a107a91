// Package bug reproduces the shape of Terry-Mao/goim commit fba6416
// (https://github.com/Terry-Mao/goim/commit/fba64163f01bfb42e325e78536c295e4a949d76b):
// the protorpc server keeps two pools, one whose New makes *Request values and
// one whose New makes *Response values. The helpers that borrow and return a
// response were written against the request pool, so every response frame was
// recycled into the pool of requests (and fetched from it with a *Response
// assertion that panics whenever the pool falls back to New). The fix made the
// response helpers use respPool (this twin).
// Check: typemismatch (the Put of a *Response into the pool of *Request, in freeResponse).
package bug

import (
	"io"
	"sync"
)

// Request is the header of an incoming call.
type Request struct {
	ServiceMethod string
	Seq           uint64
}

// Reset clears the request header.
func (r *Request) Reset() { *r = Request{} }

// Response is the header of an outgoing reply.
type Response struct {
	ServiceMethod string
	Seq           uint64
	Error         string
}

// Reset clears the response header.
func (r *Response) Reset() { *r = Response{} }

// ServerCodec writes replies.
type ServerCodec interface {
	WriteResponse(resp *Response, body interface{}) error
}

// Server dispatches calls.
type Server struct {
	reqPool sync.Pool
	// respLock sync.Mutex // protects freeResp (old free list)
	respPool sync.Pool
}

// NewServer builds a server with both pools.
func NewServer() *Server {
	return &Server{
		reqPool: sync.Pool{
			New: func() interface{} {
				return new(Request)
			},
		},
		respPool: sync.Pool{
			New: func() interface{} {
				return new(Response)
			},
		},
	}
}

func (server *Server) getRequest() *Request {
	return server.reqPool.Get().(*Request)
}

func (server *Server) freeRequest(req *Request) {
	req.Reset()
	server.reqPool.Put(req)
}

func (server *Server) getResponse() *Response {
	return server.respPool.Get().(*Response)
}

func (server *Server) freeResponse(resp *Response) {
	resp.Reset()
	server.respPool.Put(resp)
}

var invalidRequest = struct{}{}

func (server *Server) sendResponse(sending *sync.Mutex, req *Request, reply interface{}, codec ServerCodec, errmsg string) {
	resp := server.getResponse()
	resp.ServiceMethod = req.ServiceMethod
	if errmsg != "" {
		resp.Error = errmsg
		reply = invalidRequest
	}
	resp.Seq = req.Seq
	sending.Lock()
	err := codec.WriteResponse(resp, reply)
	if err != nil && err != io.EOF {
		_ = err
	}
	sending.Unlock()
	server.freeResponse(resp)
}

// Call serves one request and frees it.
func (server *Server) Call(sending *sync.Mutex, method string, seq uint64, reply interface{}, codec ServerCodec) {
	req := server.getRequest()
	req.ServiceMethod = method
	req.Seq = seq
	server.sendResponse(sending, req, reply, codec, "")
	server.freeRequest(req)
}
