// Package fixed is valyala/fasthttp#2184 after the fix: in keep-open mode
// the buffered reader stays owned by the escaped hijacked connection and is
// not given back to the pool; it is released only when the server closes the
// connection itself.
package fixed

import (
	"bufio"
	"io"
	"net"
	"sync"
)

type HijackHandler func(c net.Conn)

type Server struct {
	KeepHijackedConns bool
	readerPool        sync.Pool
	hijackConnPool    sync.Pool
}

type hijackConn struct {
	net.Conn
	r io.Reader
}

func (c *hijackConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func acquireReader(s *Server, c net.Conn) *bufio.Reader {
	v := s.readerPool.Get()
	if v == nil {
		return bufio.NewReaderSize(c, 4096)
	}
	r := v.(*bufio.Reader)
	r.Reset(c)
	return r
}

func releaseReader(s *Server, r *bufio.Reader) {
	r.Reset(nil)
	s.readerPool.Put(r)
}

func (s *Server) acquireHijackConn(r io.Reader, c net.Conn) *hijackConn {
	v := s.hijackConnPool.Get()
	if v == nil {
		return &hijackConn{Conn: c, r: r}
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

func hijackConnHandler(r io.Reader, c net.Conn, s *Server, h HijackHandler) {
	hjc := s.acquireHijackConn(r, c)
	h(hjc)

	if !s.KeepHijackedConns {
		if br, ok := r.(*bufio.Reader); ok {
			releaseReader(s, br)
		}
		c.Close()
		s.releaseHijackConn(hjc)
	}
}

func (s *Server) serveConn(c net.Conn, h HijackHandler) error {
	br := acquireReader(s, c)
	if _, err := br.Peek(1); err != nil {
		releaseReader(s, br)
		return err
	}
	if h != nil {
		var hjr io.Reader = c
		if br != nil {
			hjr = br
			br = nil
		}
		go hijackConnHandler(hjr, c, s, h)
		return nil
	}
	releaseReader(s, br)
	return nil
}
