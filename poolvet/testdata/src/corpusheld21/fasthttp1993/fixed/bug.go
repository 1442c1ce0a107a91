// Package bug reproduces the shape of valyala/fasthttp#1993
// (https://github.com/valyala/fasthttp/pull/1993, "Fix panic when
// perIPConn.Close is called multiple times"): with a per-IP connection limit
// the server wraps every accepted connection in a pooled *perIPConn whose
// Close unregisters the IP and puts the wrapper back into
// perIPConnCounter.perIPConnPool. The same wrapper is owned twice: the worker
// that serves it closes it when serveConn returns, and the server's idleConns
// map, which Shutdown walks in closeIdleConns, closes every idle connection.
// A connection that is idle when Shutdown runs is closed by closeIdleConns,
// serveConn then returns, and the worker closes it again: the wrapper is put
// back into the pool a second time (or, if another goroutine already got it
// from the pool, the new owner's connection is closed and recycled).
//
// Fixed twin (the project's fix): Close takes the inner connection under a
// lock and clears it, and only the call that found it non-nil closes it and
// puts the wrapper back, so a second Close is a no-op.
//
// Check: doubleput (none expected here).
package bug

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

type perIPConnCounter struct {
	perIPConnPool sync.Pool
	m             map[uint32]int
	lock          sync.Mutex
}

func (cc *perIPConnCounter) Register(ip uint32) int {
	cc.lock.Lock()
	if cc.m == nil {
		cc.m = make(map[uint32]int)
	}
	n := cc.m[ip] + 1
	cc.m[ip] = n
	cc.lock.Unlock()
	return n
}

func (cc *perIPConnCounter) Unregister(ip uint32) {
	cc.lock.Lock()
	defer cc.lock.Unlock()
	n := cc.m[ip] - 1
	if n < 0 {
		n = 0
	}
	cc.m[ip] = n
}

type perIPConn struct {
	net.Conn

	perIPConnCounter *perIPConnCounter

	ip   uint32
	lock sync.Mutex
}

func acquirePerIPConn(conn net.Conn, ip uint32, counter *perIPConnCounter) net.Conn {
	v := counter.perIPConnPool.Get()
	if v == nil {
		return &perIPConn{
			perIPConnCounter: counter,
			Conn:             conn,
			ip:               ip,
		}
	}
	c := v.(*perIPConn)
	c.Conn = conn
	c.ip = ip
	return c
}

func (c *perIPConn) Close() error {
	c.lock.Lock()
	cc := c.Conn
	c.Conn = nil
	c.lock.Unlock()

	if cc == nil {
		return nil
	}

	err := cc.Close()
	c.perIPConnCounter.Unregister(c.ip)
	c.perIPConnCounter.perIPConnPool.Put(c)
	return err
}

var idleConnTimePool = sync.Pool{
	New: func() any { return new(atomic.Int64) },
}

// Server keeps the connections it is serving in idleConns so that Shutdown
// can close the ones waiting for a request.
type Server struct {
	Handler func(c net.Conn) error

	MaxConnsPerIP    int
	perIPConnCounter perIPConnCounter

	idleConns   map[net.Conn]*atomic.Int64
	idleConnsMu sync.Mutex
}

func (s *Server) wrapPerIPConn(c net.Conn, ip uint32) net.Conn {
	n := s.perIPConnCounter.Register(ip)
	if n > s.MaxConnsPerIP {
		s.perIPConnCounter.Unregister(ip)
		c.Close()
		return nil
	}
	return acquirePerIPConn(c, ip, &s.perIPConnCounter)
}

func (s *Server) serveConn(c net.Conn) error {
	s.idleConnsMu.Lock()
	if s.idleConns == nil {
		s.idleConns = make(map[net.Conn]*atomic.Int64)
	}
	idleConnTime, ok := s.idleConns[c]
	if !ok {
		idleConnTime = idleConnTimePool.Get().(*atomic.Int64)
		s.idleConns[c] = idleConnTime
	}
	idleConnTime.Store(time.Now().Unix())
	s.idleConnsMu.Unlock()

	err := s.Handler(c)

	s.idleConnsMu.Lock()
	ic, ok := s.idleConns[c]
	if ok {
		ic.Store(0)
		idleConnTimePool.Put(ic)
		delete(s.idleConns, c)
	}
	s.idleConnsMu.Unlock()
	return err
}

func (s *Server) closeIdleConns() {
	s.idleConnsMu.Lock()
	now := time.Now().Unix()
	for c, ict := range s.idleConns {
		t := ict.Load()
		if t != 0 && now-t >= 0 {
			_ = c.Close()
			delete(s.idleConns, c)
			ict.Store(0)
			idleConnTimePool.Put(ict)
		}
	}
	s.idleConnsMu.Unlock()
}

// Shutdown closes the idle connections.
func (s *Server) Shutdown() {
	s.closeIdleConns()
}

// workerFunc is what a worker of the worker pool runs for each accepted
// connection.
func (s *Server) workerFunc(raw net.Conn, ip uint32) {
	c := s.wrapPerIPConn(raw, ip)
	if c == nil {
		return
	}
	_ = s.serveConn(c)
	_ = c.Close()
}
