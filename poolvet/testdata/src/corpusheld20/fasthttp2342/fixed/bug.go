// Package bug reproduces the shape of valyala/fasthttp#2342
// (https://github.com/valyala/fasthttp/pull/2342): serveConnCounted takes an
// *atomic.Int64 idle timestamp from idleConnTimePool, records it in
// s.idleConns and keeps it in a local that it stores into on every request
// (without holding idleConnsMu). During shutdown closeIdleConns reaps idle
// entries from the map, closes the connection and puts the same counter back
// into the pool, although the connection's goroutine still owns it and keeps
// storing into it; once another connection takes the counter from the pool,
// those stores land in the other connection's idle time. The fix drops the Put
// in closeIdleConns: only the owning goroutine returns the counter.
// Check: useafterput (the Put in closeIdleConns recycles a counter that the
// connection goroutine still stores into).
package bug

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

var idleConnTimePool sync.Pool

// Server is a minimal stand-in for fasthttp.Server.
type Server struct {
	Handler func(c net.Conn) error

	idleConnsMu sync.Mutex
	idleConns   map[net.Conn]*atomic.Int64
	stop        atomic.Int32
}

func (s *Server) serveConnCounted(c net.Conn) error {
	connTime := time.Now()

	s.idleConnsMu.Lock()
	if s.idleConns == nil {
		s.idleConns = make(map[net.Conn]*atomic.Int64)
	}
	idleConnTime, ok := s.idleConns[c]
	if !ok {
		v := idleConnTimePool.Get()
		if v == nil {
			v = &atomic.Int64{}
		}
		idleConnTime = v.(*atomic.Int64)
		s.idleConns[c] = idleConnTime
	}
	// Count the connection as idle after 5 seconds.
	idleConnTime.Store(connTime.Add(5 * time.Second).Unix())
	s.idleConnsMu.Unlock()

	var err error
	for {
		idleConnTime.Store(0) // active
		if err = s.Handler(c); err != nil {
			break
		}
		idleConnTime.Store(time.Now().Unix()) // idle since now
		if s.stop.Load() == 1 {
			err = nil
			break
		}
	}

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

// closeIdleConns closes the connections that have been idle, as used by
// Shutdown.
func (s *Server) closeIdleConns() {
	s.idleConnsMu.Lock()
	now := time.Now().Unix()
	for c, ict := range s.idleConns {
		t := ict.Load()
		if t != 0 && now-t >= 0 {
			_ = c.Close()
			// Don't recycle ict: the connection's own goroutine still holds it
			// and stores into it, so only that goroutine may return it.
			delete(s.idleConns, c)
		}
	}
	s.idleConnsMu.Unlock()
}

// Shutdown stops serving and reaps idle connections until none are left.
func (s *Server) Shutdown() {
	s.stop.Store(1)
	for {
		s.closeIdleConns()
		s.idleConnsMu.Lock()
		n := len(s.idleConns)
		s.idleConnsMu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Serve serves c until the handler fails or the server stops.
func (s *Server) Serve(c net.Conn) error { return s.serveConnCounted(c) }
