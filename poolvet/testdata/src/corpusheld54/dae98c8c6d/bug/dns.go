// Source: https://github.com/daeuniverse/dae/commit/98c8c6d58aa01dd2d8ba68d625ec4839fc6c2231
// ("fix(dns): clear request deadlines before reusing UDP connections",
// control/dns.go).
//
// Bug: DoUDP.ForwardDNS borrows a UDP socket from udpConnPool (a channel of
// idle connections), sets the request's deadline on it with
// conn.SetDeadline(deadline), and returns it with a deferred
// udpPool.put(conn). put wrapped the connection with a timestamp and sent
// it back into idleConns with the previous request's deadline still set, so
// the next request that borrowed the socket inherited a stale (possibly
// already expired) deadline.
//
// Fix: put clears the deadline (conn.SetDeadline(time.Time{})) before the
// socket becomes idle again.
//
// Check: noreset (at the send into p.idleConns in udpConnPool.put: the
// connection goes back to the pool still carrying its last user's deadline)
package bug

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

var ErrDNSUDPConnPoolExhausted = errors.New("dns udp conn pool exhausted")

const DefaultDialTimeout = 8 * time.Second

// udpConnWithTimestamp wraps a connection with its last use time
type udpConnWithTimestamp struct {
	conn     net.Conn
	lastUsed time.Time
}

// udpConnPool implements a UDP connection pool.
// It uses a poor-man's pool (borrow/return) to reuse sockets sequentially.
type udpConnPool struct {
	idleConns   chan *udpConnWithTimestamp
	dialer      func(context.Context) (net.Conn, error)
	closed      atomic.Bool
	opsMu       sync.Mutex
	liveMu      sync.Mutex
	liveConns   map[net.Conn]struct{}
	maxIdleTime time.Duration // Connections older than this are discarded
	activeCount atomic.Int32
	maxActive   int32
}

func newUdpConnPool(maxIdle, maxActive int, dialer func(context.Context) (net.Conn, error)) *udpConnPool {
	return &udpConnPool{
		idleConns:   make(chan *udpConnWithTimestamp, maxIdle),
		dialer:      dialer,
		liveConns:   make(map[net.Conn]struct{}, maxActive),
		maxIdleTime: 30 * time.Second,
		maxActive:   int32(maxActive),
	}
}

func (p *udpConnPool) discard(conn net.Conn) {
	if conn == nil {
		return
	}
	_ = conn.Close()
	p.liveMu.Lock()
	_, ok := p.liveConns[conn]
	delete(p.liveConns, conn)
	p.liveMu.Unlock()
	if ok {
		p.activeCount.Add(-1)
	}
}

func (p *udpConnPool) takeIdleConn() (net.Conn, error, bool) {
	select {
	case connWithTime := <-p.idleConns:
		if connWithTime == nil {
			return nil, io.ErrClosedPipe, true
		}
		if p.closed.Load() {
			p.discard(connWithTime.conn)
			return nil, io.ErrClosedPipe, true
		}
		if time.Since(connWithTime.lastUsed) > p.maxIdleTime {
			p.discard(connWithTime.conn)
			return nil, nil, false
		}
		return connWithTime.conn, nil, true
	default:
		return nil, nil, false
	}
}

func (p *udpConnPool) get(ctx context.Context) (net.Conn, error) {
	if p.closed.Load() {
		return nil, io.ErrClosedPipe
	}
	if conn, err, ok := p.takeIdleConn(); ok {
		return conn, err
	}
	if p.activeCount.Add(1) <= p.maxActive {
		conn, err := p.dialer(ctx)
		if err != nil {
			p.activeCount.Add(-1)
			return nil, err
		}
		p.liveMu.Lock()
		p.liveConns[conn] = struct{}{}
		p.liveMu.Unlock()
		return conn, nil
	}
	p.activeCount.Add(-1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, ErrDNSUDPConnPoolExhausted
}

func (p *udpConnPool) put(conn net.Conn) {
	if conn == nil {
		return
	}

	if p.closed.Load() {
		p.discard(conn)
		return
	}

	// Wrap connection with current timestamp
	connWithTime := &udpConnWithTimestamp{
		conn:     conn,
		lastUsed: time.Now(),
	}

	p.opsMu.Lock()
	defer p.opsMu.Unlock()

	if p.closed.Load() {
		p.discard(conn)
		return
	}

	select {
	case p.idleConns <- connWithTime: // want `noreset`

	default:
		// Pool full, close connection
		p.discard(conn)
	}
}

type DoUDP struct {
	pool *udpConnPool
}

func (d *DoUDP) ForwardDNS(ctx context.Context, data []byte) ([]byte, error) {
	udpPool := d.pool
	conn, err := udpPool.get(ctx)
	if err != nil {
		return nil, err
	}

	// Track if connection is bad to avoid returning it to pool
	badConn := false
	defer func() {
		if !badConn {
			udpPool.put(conn)
		}
	}()

	deadline, hasDeadline := ctx.Deadline()
	if !hasDeadline {
		deadline = time.Now().Add(DefaultDialTimeout)
	}
	_ = conn.SetDeadline(deadline)

	var originalID uint16
	if len(data) >= 2 {
		originalID = binary.BigEndian.Uint16(data[0:2])
	}

	if _, err = conn.Write(data); err != nil {
		udpPool.discard(conn)
		badConn = true
		return nil, err
	}

	respBuf := make([]byte, 1500)
	const maxStaleResponses = 8
	staleResponses := 0
	for {
		n, err := conn.Read(respBuf)
		if err != nil {
			udpPool.discard(conn)
			badConn = true
			return nil, err
		}
		if n < 2 {
			staleResponses++
			if staleResponses > maxStaleResponses {
				udpPool.discard(conn)
				badConn = true
				return nil, fmt.Errorf("too many malformed UDP DNS responses")
			}
			continue
		}
		if binary.BigEndian.Uint16(respBuf[0:2]) != originalID {
			// Stale packet from previous request.
			staleResponses++
			if staleResponses > maxStaleResponses {
				udpPool.discard(conn)
				badConn = true
				return nil, fmt.Errorf("too many stale UDP DNS responses")
			}
			continue
		}
		return append([]byte(nil), respBuf[:n]...), nil
	}
}
