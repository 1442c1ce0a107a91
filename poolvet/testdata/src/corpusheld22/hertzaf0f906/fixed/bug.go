// Package bug reproduces the fix of cloudwego/hertz commit af0f906
// (https://github.com/cloudwego/hertz/commit/af0f906f8e61f07e0a22bedaeaa7a14586b60e91):
// putRequestContext resets the RequestContext (dropping the connection and all
// per-request state) before putting it back into the engine's pool.
// Check: noreset (fixed twin: no report expected).
package bug

import (
	"errors"
	"io"
	"net"
	"sync"
)

var errShortConnection = errors.New("server is going to close the connection")

type Request struct {
	uri    string
	header map[string]string
	body   []byte
}

func (req *Request) ResetWithoutConn() {
	req.uri = ""
	for k := range req.header {
		delete(req.header, k)
	}
	req.body = req.body[:0]
}

type Response struct {
	status int
	body   []byte
}

func (resp *Response) Reset() {
	resp.status = 0
	resp.body = resp.body[:0]
}

type HandlerFunc func(ctx *RequestContext)

// RequestContext mirrors app.RequestContext.
type RequestContext struct {
	conn     net.Conn
	Request  Request
	Response Response

	Params   []string
	handlers []HandlerFunc
	index    int
	fullPath string
	Keys     map[string]interface{}

	exiled bool
}

func (ctx *RequestContext) SetConn(c net.Conn) { ctx.conn = c }

func (ctx *RequestContext) GetConn() net.Conn { return ctx.conn }

func (ctx *RequestContext) IsExiled() bool { return ctx.exiled }

// ResetWithoutConn resets the per-request state but keeps the connection.
func (ctx *RequestContext) ResetWithoutConn() {
	ctx.Params = ctx.Params[0:0]
	ctx.handlers = nil
	ctx.index = -1
	ctx.fullPath = ""
	ctx.Keys = nil
	ctx.Request.ResetWithoutConn()
	ctx.Response.Reset()
}

// Reset resets requestContext.
func (ctx *RequestContext) Reset() {
	ctx.ResetWithoutConn()
	ctx.conn = nil
}

// Core mirrors the engine interface the protocol server depends on.
type Core interface {
	GetCtxPool() *sync.Pool
	ServeHTTP(ctx *RequestContext)
}

var disabaleRequestContextPool = false

type Server struct {
	Core Core

	IdleTimeout int
}

func (s Server) getRequestContext() *RequestContext {
	if disabaleRequestContextPool {
		return &RequestContext{}
	}
	return s.Core.GetCtxPool().Get().(*RequestContext)
}

func (s Server) putRequestContext(ctx *RequestContext) {
	if disabaleRequestContextPool {
		return
	}
	ctx.Reset()
	s.Core.GetCtxPool().Put(ctx)
}

func readRequest(r io.Reader, req *Request) (connectionClose bool, err error) {
	buf := make([]byte, 512)
	n, err := r.Read(buf)
	if err != nil {
		return false, err
	}
	req.body = append(req.body[:0], buf[:n]...)
	if req.header == nil {
		req.header = make(map[string]string)
	}
	req.header["Connection"] = "keep-alive"
	return req.header["Connection"] == "close", nil
}

func (s Server) Serve(conn net.Conn) (err error) {
	var (
		connectionClose bool

		// 1. Get a request context
		// 2. Prepare it
		// 3. Process it
		// 4. Reset and recycle(in pooled mode)
		ctx = s.getRequestContext()
	)

	defer func() {
		if ctx.IsExiled() {
			return
		}

		s.putRequestContext(ctx)
	}()

	ctx.SetConn(conn)

	for {
		if connectionClose, err = readRequest(ctx.GetConn(), &ctx.Request); err != nil {
			return
		}

		s.Core.ServeHTTP(ctx)

		if _, err = ctx.GetConn().Write(ctx.Response.body); err != nil {
			return
		}

		if connectionClose {
			return errShortConnection
		}
		// Back to network layer to trigger.
		if s.IdleTimeout == 0 {
			return
		}

		ctx.ResetWithoutConn()
	}
}
