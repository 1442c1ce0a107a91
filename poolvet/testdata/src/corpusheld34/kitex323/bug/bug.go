// Package bug reproduces the shape of cloudwego/kitex#323
// (https://github.com/cloudwego/kitex/pull/323, "fix(remotecli): fix bug
// that released connections being reuse"): the client's ConnWrapper (itself
// taken from a sync.Pool) hands its connection back to the connection pool
// in ReleaseConn. When the call succeeded but the server had asked for a
// connection reset, ReleaseConn discarded the connection and then fell
// through to the unconditional Put, so the same connection was released
// twice: it was closed by Discard and also parked as idle, and the next
// call got a closed connection out of the pool. The fix puts the connection
// back only in the else branch.
//
// Check: doubleput (the Put after Discard releases the connection a second
// time).
package bug

import (
	"context"
	"errors"
	"net"
	"sync"
)

// ConnPool is the long-connection pool interface used by the client.
type ConnPool interface {
	Get(ctx context.Context, network, address string) (net.Conn, error)
	// Put returns a healthy connection for reuse.
	Put(conn net.Conn) error
	// Discard closes a connection and forgets it.
	Discard(conn net.Conn) error
}

// LongPool keeps idle connections per address.
type LongPool struct {
	mu   sync.Mutex
	idle map[string][]net.Conn
	dial func(network, address string) (net.Conn, error)
}

// NewLongPool returns a pool that dials with dial.
func NewLongPool(dial func(network, address string) (net.Conn, error)) *LongPool {
	return &LongPool{idle: make(map[string][]net.Conn), dial: dial}
}

// Get returns an idle connection or dials a new one.
func (p *LongPool) Get(ctx context.Context, network, address string) (net.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	if l := p.idle[address]; len(l) > 0 {
		c := l[len(l)-1]
		p.idle[address] = l[:len(l)-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	return p.dial(network, address)
}

// Put parks conn as idle.
func (p *LongPool) Put(conn net.Conn) error {
	addr := conn.RemoteAddr().String()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle[addr]) >= 64 {
		return conn.Close()
	}
	p.idle[addr] = append(p.idle[addr], conn)
	return nil
}

// Discard closes conn.
func (p *LongPool) Discard(conn net.Conn) error {
	return conn.Close()
}

// RPCInfo carries what the transport learned about the call.
type RPCInfo struct {
	Network, Address string
	// ConnReset is set when the peer asked the client to drop the connection.
	ConnReset bool
}

var errNoDestAddress = errors.New("no dest address")

var connWrapperPool sync.Pool

func init() {
	connWrapperPool.New = newConnWrapper
}

func newConnWrapper() interface{} {
	return &ConnWrapper{}
}

// ConnWrapper wraps the connection of one call.
type ConnWrapper struct {
	connPool ConnPool
	conn     net.Conn
}

// NewConnWrapper takes a wrapper from the pool.
func NewConnWrapper(connPool ConnPool) *ConnWrapper {
	cm := connWrapperPool.Get().(*ConnWrapper)
	cm.connPool = connPool
	return cm
}

// GetConn obtains the connection for the call.
func (cm *ConnWrapper) GetConn(ctx context.Context, ri *RPCInfo) (net.Conn, error) {
	if ri.Address == "" {
		return nil, errNoDestAddress
	}
	conn, err := cm.connPool.Get(ctx, ri.Network, ri.Address)
	if err != nil {
		return nil, err
	}
	cm.conn = conn
	return conn, nil
}

// ReleaseConn gives the connection back and recycles the wrapper.
func (cm *ConnWrapper) ReleaseConn(err error, ri *RPCInfo) {
	if cm.conn == nil {
		return
	}
	if cm.connPool != nil {
		if err == nil {
			if ri.ConnReset {
				cm.connPool.Discard(cm.conn)
			}
			cm.connPool.Put(cm.conn) // want `doubleput`
		} else {
			cm.connPool.Discard(cm.conn)
		}
	} else {
		cm.conn.Close()
	}

	cm.zero()
	connWrapperPool.Put(cm)
}

func (cm *ConnWrapper) zero() {
	cm.connPool = nil
	cm.conn = nil
}
