// Source: https://github.com/valyala/fasthttp/pull/1629
// (commit c6a17b9a57d2c0ff4261a6b4d58b42390f379f52, server.go)
// Domain note: fasthttp is the HTTP server/client library under many Go
// reverse proxies and gateways; the reverse-proxy domain ran dry.
//
// Bug: when a request is hijacked, fasthttp wraps the connection in a
// *hijackConn taken from Server.hijackConnPool and hands it to the user's
// HijackHandler. With KeepHijackedConns enabled the handler owns the
// connection beyond its return (typically keeping it in another goroutine)
// and must Close it itself; hijackConn.Close then put the hijackConn struct
// back into hijackConnPool. The user still holds that net.Conn: any later
// Read/Write/Close on it hits a nil Conn or, once the pool handed the struct
// to another hijacked request, reads from / writes to / closes a completely
// different client connection.
// Fix: with KeepHijackedConns, Close only closes the underlying connection
// and never returns the hijackConn to the pool (it is left to the GC).
//
// Check: useafterput (hijackConn.Close puts the struct back into the pool
// while the handler that was given it still holds and uses it)
package bug

import (
	"bufio"
	"io"
	"net"
	"sync"
)

// HijackHandler must process the hijacked connection c.
//
// When KeepHijackedConns enabled, fasthttp will not Close() the connection,
// you must do it when you need it. You must not use c in any way after calling Close().
type HijackHandler func(c net.Conn)

type RequestCtx struct {
	s             *Server
	c             net.Conn
	hijackHandler HijackHandler
}

type Server struct {
	// KeepHijackedConns is an opt-in disable of connection
	// close by fasthttp after connections' HijackHandler returns.
	KeepHijackedConns bool

	ctxPool        sync.Pool
	readerPool     sync.Pool
	hijackConnPool sync.Pool
}

func (s *Server) acquireCtx(c net.Conn) *RequestCtx {
	v := s.ctxPool.Get()
	if v == nil {
		return &RequestCtx{s: s, c: c}
	}
	ctx := v.(*RequestCtx)
	ctx.c = c
	return ctx
}

func (s *Server) releaseCtx(ctx *RequestCtx) {
	ctx.c = nil
	ctx.hijackHandler = nil
	s.ctxPool.Put(ctx)
}

func releaseReader(s *Server, r *bufio.Reader) {
	s.readerPool.Put(r)
}

// serveHijacked is the tail of Server.serveConn for a hijacked request.
func (s *Server) serveHijacked(ctx *RequestCtx, c net.Conn, br *bufio.Reader) error {
	hijackHandler := ctx.hijackHandler
	var hjr io.Reader = c
	if br != nil {
		hjr = br
	}
	go hijackConnHandler(ctx, hjr, c, s, hijackHandler)
	return nil
}

func hijackConnHandler(ctx *RequestCtx, r io.Reader, c net.Conn, s *Server, h HijackHandler) {
	hjc := s.acquireHijackConn(r, c)
	h(hjc)

	if br, ok := r.(*bufio.Reader); ok {
		releaseReader(s, br)
	}
	if !s.KeepHijackedConns {
		c.Close()
		s.releaseHijackConn(hjc)
	}
	s.releaseCtx(ctx)
}

func (s *Server) acquireHijackConn(r io.Reader, c net.Conn) *hijackConn {
	v := s.hijackConnPool.Get()
	if v == nil {
		hjc := &hijackConn{
			Conn: c,
			r:    r,
			s:    s,
		}
		return hjc
	}
	hjc := v.(*hijackConn)
	hjc.Conn = c
	hjc.r = r
	return hjc
}

func (s *Server) releaseHijackConn(hjc *hijackConn) {
	hjc.Conn = nil
	hjc.r = nil
	s.hijackConnPool.Put(hjc)
}

type hijackConn struct {
	net.Conn
	r io.Reader
	s *Server
}

func (c *hijackConn) UnsafeConn() net.Conn {
	return c.Conn
}

func (c *hijackConn) Read(p []byte) (int, error) {
	return c.r.Read(p)
}

func (c *hijackConn) Close() error {
	if !c.s.KeepHijackedConns {
		// when we do not keep hijacked connections,
		// it is closed in hijackConnHandler.
		return nil
	}

	conn := c.Conn
	c.s.releaseHijackConn(c) // want `useafterput`
	return conn.Close()
}
