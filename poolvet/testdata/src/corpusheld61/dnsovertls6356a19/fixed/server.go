// Source: https://github.com/mikispag/dns-over-tls-forwarder/issues/2
// ("Race Condition: connections can be put in the pool while in use"),
// fixed by commit 6356a1947170bfb7965ab7ef4e7854562f94f5ca ("Serve uses a
// slice of pools, fixed #2, pools are safer to shutdown").
//
// Fixed: each exchangeMessages goroutine gets its connection from its own
// pool and puts it back only when its own exchange is done; the pool has a
// closed flag so put after shutdown is safe. (The context watcher goroutine
// in exchangeMessages is kept as upstream wrote it.)
package fixed

import (
	"context"
	"errors"
	"sync"
	"time"
)

const connectionTimeout = 10 * time.Second

type connector func() (*Conn, error)

type pool struct {
	c connector

	mu     sync.RWMutex
	closed bool
	buf    chan *Conn
}

func newPool(size int, c connector) *pool {
	return &pool{
		buf: make(chan *Conn, size),
		c:   c,
	}
}

func (p *pool) get() (*Conn, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return nil, errors.New("pool is shut down")
	}

	select {
	case c := <-p.buf:
		return c, nil
	default:
		return p.c()
	}
}

func (p *pool) put(c *Conn) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return
	}

	select {
	case p.buf <- c:
	default:
		c.Close()
	}
}

func (p *pool) shutdown() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	close(p.buf)
	for c := range p.buf {
		c.Close()
	}
}

type Server struct {
	pools []*pool
}

func (s *Server) forwardMessageAndGetResponse(ctx context.Context, q *Msg) (m *Msg) {
	ctx, cancel := context.WithDeadline(ctx, time.Now().Add(connectionTimeout))
	// This causes all concurrent connections to terminate early if we have a response already.
	defer cancel()
	resps := make(chan *Msg, len(s.pools))
	for _, p := range s.pools {
		go func(p *pool) {
			r, err := exchangeMessages(ctx, p, q)
			if err != nil || r == nil {
				resps <- nil
			}
			resps <- r
		}(p)
	}
	for c := 0; c < len(s.pools); c++ {
		if r := <-resps; r != nil {
			return r
		}
	}
	return nil
}

func exchangeMessages(ctx context.Context, p *pool, q *Msg) (resp *Msg, err error) {
	c, err := p.get()
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(connectionTimeout))
	defer func() {
		if resp == nil || err != nil {
			c.Close()
			return
		}
		p.put(c)
	}()
	go func() {
		<-ctx.Done()
		// Our work is not needed anymore, abort all I/O.
		c.SetDeadline(time.Now())
	}()
	if err := c.WriteMsg(q); err != nil {
		return nil, err
	}
	resp, err = c.ReadMsg()
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, err
	}
	return resp, err
}
