// Source: https://github.com/lubanproj/gorpc/pull/17
// (commit 9921ecae8e3133a823632012c1f880f3b920cef8, "fix(connpool) fix
// channelPool Put && channelPool Close").
//
// Bug: channelPool keeps idle connections in a buffered channel. A PoolConn's
// Close does not close the socket: unless the connection is marked unusable,
// it puts itself back with p.c.Put(p). channelPool.Put, when the pool had
// been closed (c.conns == nil), called conn.Close() on the connection it was
// putting, which put the same connection back into the pool again (and
// channelPool.Close did the same for every drained connection), so a
// connection that should have been discarded was handed to the pool twice.
//
// Fix: call conn.MarkUnusable() before conn.Close() in channelPool.Put and
// channelPool.Close, so Close really closes the socket instead of putting the
// connection back.
//
// Check: doubleput (conn.Close() inside channelPool.Put puts conn into the
// pool a second time through PoolConn.Close -> p.c.Put(p))
package fixed

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

var ErrConnClosed = errors.New("connection closed ...")

type PoolConn struct {
	net.Conn
	c           *channelPool
	unusable    bool // if unusable is true, the conn should be closed
	mu          sync.RWMutex
	t           time.Time     // connection idle time
	dialTimeout time.Duration // connection timeout duration
}

// overwrite conn Close for connection reuse
func (p *PoolConn) Close() error {
	p.mu.RLock()
	defer p.mu.RUnlock()

	if p.unusable {
		if p.Conn != nil {
			return p.Conn.Close()
		}
	}

	// reset connection deadline
	p.Conn.SetDeadline(time.Time{})

	return p.c.Put(p)
}

func (p *PoolConn) MarkUnusable() {
	p.mu.Lock()
	p.unusable = true
	p.mu.Unlock()
}

func (c *channelPool) wrapConn(conn net.Conn) *PoolConn {
	p := &PoolConn{
		c:           c,
		t:           time.Now(),
		dialTimeout: c.dialTimeout,
	}
	p.Conn = conn
	return p
}

type channelPool struct {
	net.Conn
	initialCap  int           // initial capacity
	maxCap      int           // max capacity
	maxIdle     int           // max idle conn number
	idleTimeout time.Duration // idle timeout
	dialTimeout time.Duration // dial timeout
	Dial        func(context.Context) (net.Conn, error)
	conns       chan *PoolConn
	mu          sync.RWMutex
}

func (c *channelPool) Get(ctx context.Context) (net.Conn, error) {
	if c.conns == nil {
		return nil, ErrConnClosed
	}
	select {
	case pc := <-c.conns:
		if pc == nil {
			return nil, ErrConnClosed
		}

		if pc.unusable {
			return nil, ErrConnClosed
		}

		return pc, nil
	default:
		conn, err := c.Dial(ctx)
		if err != nil {
			return nil, err
		}
		return c.wrapConn(conn), nil
	}
}

func (c *channelPool) Close() {
	c.mu.Lock()
	conns := c.conns
	c.conns = nil
	c.Dial = nil
	c.mu.Unlock()

	if conns == nil {
		return
	}
	close(conns)
	for conn := range conns {
		conn.MarkUnusable()
		conn.Close()
	}
}

func (c *channelPool) Put(conn *PoolConn) error {
	if conn == nil {
		return errors.New("connection closed")
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.conns == nil {
		conn.MarkUnusable()
		conn.Close()
	}

	select {
	case c.conns <- conn:
		return nil
	default:
		// the pool is full
		return conn.Close()
	}
}
