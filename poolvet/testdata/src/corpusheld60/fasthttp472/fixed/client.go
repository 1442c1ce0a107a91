// Source: https://github.com/valyala/fasthttp/pull/472
// (issue https://github.com/valyala/fasthttp/issues/473; fixed by commits
// c7d1f2a6d603c6223639593f5ae50388e95f9005 .. 707bfb8, "Remove the set read
// and write deadline optimization", client.go).
//
// Fixed twin: clientConn no longer carries lastReadDeadlineTime /
// lastWriteDeadlineTime and doNonNilReqResp sets both deadlines on every
// request, so a reused connection never runs under the previous request's
// deadline.
//
// Check: noreset (no report expected).
package fixed

import (
	"bufio"
	"errors"
	"net"
	"sync"
	"time"
)

// ErrNoFreeConns is returned when no free connections available
// to the given host.
var ErrNoFreeConns = errors.New("no free connections available to host")

// HostClient balances http requests among hosts listed in Addr.
type HostClient struct {
	Addr string

	MaxConns     int
	ReadTimeout  time.Duration
	WriteTimeout time.Duration

	Dial func(addr string) (net.Conn, error)

	connsLock  sync.Mutex
	connsCount int
	conns      []*clientConn
}

type clientConn struct {
	c net.Conn

	createdTime time.Time
	lastUseTime time.Time
}

func (c *HostClient) doNonNilReqResp(req []byte, resp []byte) (bool, error) {
	cc, err := c.acquireConn()
	if err != nil {
		return false, err
	}
	conn := cc.c

	if c.WriteTimeout > 0 {
		// Set Deadline every time, since golang has fixed the performance issue
		// See https://github.com/golang/go/issues/15133#issuecomment-271571395 for details
		currentTime := time.Now()
		if err = conn.SetWriteDeadline(currentTime.Add(c.WriteTimeout)); err != nil {
			c.closeConn(cc)
			return true, err
		}
	}

	bw := bufio.NewWriter(conn)
	_, err = bw.Write(req)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		c.closeConn(cc)
		return true, err
	}

	if c.ReadTimeout > 0 {
		// Set Deadline every time, since golang has fixed the performance issue
		// See https://github.com/golang/go/issues/15133#issuecomment-271571395 for details
		currentTime := time.Now()
		if err = conn.SetReadDeadline(currentTime.Add(c.ReadTimeout)); err != nil {
			c.closeConn(cc)
			return true, err
		}
	}

	br := bufio.NewReader(conn)
	if _, err = br.Read(resp); err != nil {
		c.closeConn(cc)
		return true, err
	}

	c.releaseConn(cc)
	return false, err
}

func (c *HostClient) acquireConn() (*clientConn, error) {
	var cc *clientConn
	createConn := false

	var n int
	c.connsLock.Lock()
	n = len(c.conns)
	if n == 0 {
		if c.connsCount < c.MaxConns {
			c.connsCount++
			createConn = true
		}
	} else {
		n--
		cc = c.conns[n]
		c.conns[n] = nil
		c.conns = c.conns[:n]
	}
	c.connsLock.Unlock()

	if cc != nil {
		return cc, nil
	}
	if !createConn {
		return nil, ErrNoFreeConns
	}

	conn, err := c.Dial(c.Addr)
	if err != nil {
		c.decConnsCount()
		return nil, err
	}
	cc = acquireClientConn(conn)
	return cc, nil
}

func (c *HostClient) closeConn(cc *clientConn) {
	c.decConnsCount()
	cc.c.Close()
	releaseClientConn(cc)
}

func (c *HostClient) decConnsCount() {
	c.connsLock.Lock()
	c.connsCount--
	c.connsLock.Unlock()
}

func acquireClientConn(conn net.Conn) *clientConn {
	v := clientConnPool.Get()
	if v == nil {
		v = &clientConn{}
	}
	cc := v.(*clientConn)
	cc.c = conn
	cc.createdTime = time.Now()
	return cc
}

func releaseClientConn(cc *clientConn) {
	// Reset all fields.
	*cc = clientConn{}
	clientConnPool.Put(cc)
}

var clientConnPool sync.Pool

func (c *HostClient) releaseConn(cc *clientConn) {
	cc.lastUseTime = time.Now()
	c.connsLock.Lock()
	c.conns = append(c.conns, cc)
	c.connsLock.Unlock()
}
