// Package bug reproduces the shape of contribsys/faktory#222
// (https://github.com/contribsys/faktory/pull/222): the client connection
// pool proposed for the Faktory Go client had a helper, getTCPConn, that
// checked a connection out of the pool, deferred poolConn.Close() (which,
// despite its name, checks the connection back into the pool) and then
// returned the underlying *net.TCPConn to the caller. The connection was
// therefore back in the pool, available to any other goroutine, while the
// caller went on writing the request and reading the reply on it. The
// maintainer caught it in review and asked for a closure-style helper that
// keeps the connection checked out for the whole exchange.
//
// Check: useafterput (the connection owned by the pooled wrapper is returned
// to the caller after the deferred Close has put the wrapper back; report at
// the return in getTCPConn).
package bug

import (
	"errors"
	"net"
	"sync"
)

// Closeable is what the pool stores.
type Closeable interface {
	Close() error
}

// Pool is the connection pool interface used by the client.
type Pool interface {
	Get() (Closeable, error)
	Close()
	Len() int
}

// Factory opens a new connection.
type Factory func() (Closeable, error)

var errClosed = errors.New("pool is closed")

type channelPool struct {
	mu      sync.RWMutex
	conns   chan Closeable
	factory Factory
}

// NewChannelPool returns a channel-backed pool.
func NewChannelPool(maxCap int, factory Factory) (Pool, error) {
	if maxCap <= 0 {
		return nil, errors.New("invalid capacity")
	}
	return &channelPool{conns: make(chan Closeable, maxCap), factory: factory}, nil
}

func (c *channelPool) getConnsAndFactory() (chan Closeable, Factory) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.conns, c.factory
}

// Get checks a connection out, wrapped in a PoolConn.
func (c *channelPool) Get() (Closeable, error) {
	conns, factory := c.getConnsAndFactory()
	if conns == nil {
		return nil, errClosed
	}
	select {
	case conn := <-conns:
		if conn == nil {
			return nil, errClosed
		}
		return c.wrapConn(conn), nil
	default:
		conn, err := factory()
		if err != nil {
			return nil, err
		}
		return c.wrapConn(conn), nil
	}
}

// put checks a connection back in.
func (c *channelPool) put(conn Closeable) error {
	if conn == nil {
		return errors.New("connection is nil")
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.conns == nil {
		return conn.Close()
	}
	select {
	case c.conns <- conn:
		return nil
	default:
		return conn.Close()
	}
}

func (c *channelPool) Close() {
	c.mu.Lock()
	conns := c.conns
	c.conns = nil
	c.factory = nil
	c.mu.Unlock()
	if conns == nil {
		return
	}
	close(conns)
	for conn := range conns {
		conn.Close()
	}
}

func (c *channelPool) Len() int {
	conns, _ := c.getConnsAndFactory()
	return len(conns)
}

// PoolConn wraps a pooled connection; Close checks it back in.
type PoolConn struct {
	Closeable
	mu       sync.RWMutex
	c        *channelPool
	unusable bool
}

// Close puts the connection back into the pool instead of closing it.
func (p *PoolConn) Close() error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.unusable {
		if p.Closeable != nil {
			return p.Closeable.Close()
		}
		return nil
	}
	return p.c.put(p.Closeable)
}

// MarkUnusable makes Close really close the connection.
func (p *PoolConn) MarkUnusable() {
	p.mu.Lock()
	p.unusable = true
	p.mu.Unlock()
}

func (c *channelPool) wrapConn(conn Closeable) Closeable {
	return &PoolConn{c: c, Closeable: conn}
}

// Client talks to the Faktory server over pooled connections.
type Client struct {
	pool Pool
}

func getTCPConn(pool Pool) (*net.TCPConn, error) {
	poolConn, err := pool.Get()
	if err != nil {
		return nil, err
	}
	defer poolConn.Close()

	pc, ok := poolConn.(*PoolConn)
	if !ok {
		return nil, errors.New("not a pooled connection")
	}
	tcpConn, ok := pc.Closeable.(*net.TCPConn)
	if !ok {
		return nil, errors.New("not a TCP connection")
	}
	return tcpConn, nil // want `useafterput`
}

// Push writes a job and reads the server's reply.
func (c *Client) Push(payload []byte) (string, error) {
	conn, err := getTCPConn(c.pool)
	if err != nil {
		return "", err
	}
	if _, err := conn.Write(append([]byte("PUSH "), payload...)); err != nil {
		return "", err
	}
	reply := make([]byte, 512)
	n, err := conn.Read(reply)
	if err != nil {
		return "", err
	}
	return string(reply[:n]), nil
}
