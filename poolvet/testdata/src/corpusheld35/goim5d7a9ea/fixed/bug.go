// Package bug reproduces the shape of Terry-Mao/goim commit 5d7a9ea
// (https://github.com/Terry-Mao/goim/commit/5d7a9eaa19a1f02d23c5a51ac22e7687f683f775,
// "fix new request response **interface bug"): when the protorpc server moved
// its request and response free lists to sync.Pool, the New functions were
// written as new(*Request) and new(*Response), so a fresh pool entry is a
// pointer to a nil pointer, while the helpers assert *Request / *Response on
// Get and put *Request / *Response back. The pool therefore holds two
// different dynamic types and the Get assertion panics whenever New runs. The
// fix (this twin) makes New return new(Request) and new(Response). (The separate mix-up of
// the two pools in the response helpers, fixed a few minutes later in fba6416,
// is left out here: the helpers below already use respPool.)
// Check: typemismatch (the Puts in freeRequest and freeResponse, whose values differ from what New makes).
package bug

import "sync"

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

// ServerCodec reads request headers and writes replies.
type ServerCodec interface {
	ReadRequestHeader(req *Request) error
	WriteResponse(resp *Response, body interface{}) error
}

// Server dispatches calls.
type Server struct {
	reqPool  sync.Pool
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

func (server *Server) sendResponse(sending *sync.Mutex, req *Request, reply interface{}, codec ServerCodec, errmsg string) {
	resp := server.getResponse()
	resp.ServiceMethod = req.ServiceMethod
	if errmsg != "" {
		resp.Error = errmsg
		reply = nil
	}
	resp.Seq = req.Seq
	sending.Lock()
	_ = codec.WriteResponse(resp, reply)
	sending.Unlock()
	server.freeResponse(resp)
}

// ServeCodec reads requests until the codec fails and answers each one.
func (server *Server) ServeCodec(codec ServerCodec, handle func(*Request) (interface{}, error)) {
	sending := new(sync.Mutex)
	for {
		req := server.getRequest()
		if err := codec.ReadRequestHeader(req); err != nil {
			server.freeRequest(req)
			return
		}
		reply, err := handle(req)
		errmsg := ""
		if err != nil {
			errmsg = err.Error()
		}
		server.sendResponse(sending, req, reply, codec, errmsg)
		server.freeRequest(req)
	}
}
