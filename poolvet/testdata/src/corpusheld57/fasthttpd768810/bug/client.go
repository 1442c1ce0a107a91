// Source: https://github.com/valyala/fasthttp/commit/d7688109a57b030752c3d45b1a95cb7d6b8eee96
// ("Reset all fields when releasing a clientConn", see also
// https://github.com/valyala/fasthttp/pull/259)
//
// Bug: releaseClientConn only cleared cc.c before putting the clientConn
// back into clientConnPool. lastReadDeadlineTime / lastWriteDeadlineTime
// (and the other time fields) of the previous connection survived, so a
// clientConn taken from the pool for a brand-new net.Conn skipped setting
// the read deadline ("only update if more than 25% of the last deadline
// exceeded") and Client.ReadTimeout stopped working.
//
// Fix: releaseClientConn resets the whole struct (*cc = clientConn{})
// before Put.
//
// Check: noreset (releaseClientConn puts cc back with the deadline fields
// of its previous user still set)
package bug

import (
	"bufio"
	"net"
	"sync"
	"time"
)

type clientConn struct {
	c net.Conn

	createdTime time.Time
	lastUseTime time.Time

	lastReadDeadlineTime  time.Time
	lastWriteDeadlineTime time.Time
}

type HostClient struct {
	Addr         string
	ReadTimeout  time.Duration
	WriteTimeout time.Duration

	connsLock  sync.Mutex
	connsCount int
	conns      []*clientConn
}

func (c *HostClient) dial() (net.Conn, error) {
	return net.Dial("tcp", c.Addr)
}

func (c *HostClient) acquireConn() (*clientConn, error) {
	var cc *clientConn
	c.connsLock.Lock()
	n := len(c.conns)
	if n > 0 {
		n--
		cc = c.conns[n]
		c.conns[n] = nil
		c.conns = c.conns[:n]
	} else {
		c.connsCount++
	}
	c.connsLock.Unlock()
	if cc != nil {
		return cc, nil
	}
	conn, err := c.dial()
	if err != nil {
		c.decConnsCount()
		return nil, err
	}
	return acquireClientConn(conn), nil
}

func (c *HostClient) releaseConn(cc *clientConn) {
	cc.lastUseTime = time.Now()
	c.connsLock.Lock()
	c.conns = append(c.conns, cc)
	c.connsLock.Unlock()
}

func (c *HostClient) do(req []byte, resp []byte) (int, error) {
	cc, err := c.acquireConn()
	if err != nil {
		return 0, err
	}
	conn := cc.c

	if c.WriteTimeout > 0 {
		// Optimization: update write deadline only if more than 25%
		// of the last write deadline exceeded.
		currentTime := time.Now()
		if currentTime.Sub(cc.lastWriteDeadlineTime) > (c.WriteTimeout >> 2) {
			if err = conn.SetWriteDeadline(currentTime.Add(c.WriteTimeout)); err != nil {
				c.closeConn(cc)
				return 0, err
			}
			cc.lastWriteDeadlineTime = currentTime
		}
	}

	bw := bufio.NewWriter(conn)
	if _, err = bw.Write(req); err == nil {
		err = bw.Flush()
	}
	if err != nil {
		c.closeConn(cc)
		return 0, err
	}

	if c.ReadTimeout > 0 {
		// Optimization: update read deadline only if more than 25%
		// of the last read deadline exceeded.
		currentTime := time.Now()
		if currentTime.Sub(cc.lastReadDeadlineTime) > (c.ReadTimeout >> 2) {
			if err = conn.SetReadDeadline(currentTime.Add(c.ReadTimeout)); err != nil {
				c.closeConn(cc)
				return 0, err
			}
			cc.lastReadDeadlineTime = currentTime
		}
	}

	n, err := bufio.NewReader(conn).Read(resp)
	if err != nil {
		c.closeConn(cc)
		return n, err
	}
	c.releaseConn(cc)
	return n, nil
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
	cc.c = nil
	clientConnPool.Put(cc) // want `noreset`
}

var clientConnPool sync.Pool
