// Package bug is the fixed twin of caddyserver/caddy#2554
// (https://github.com/caddyserver/caddy/pull/2554, commit 1430e6c36): the pool's
// New returns a *[]byte, Get asserts *[]byte everywhere, and the pointers are put
// back, so every Put matches what New and Get use.
// Check: typemismatch (none expected here).
package bug

import (
	"io"
	"net"
	"sync"
)

const maxReplaySize = 64 * 1024

var bufferPool = sync.Pool{New: createBuffer}

func createBuffer() interface{} {
	b := make([]byte, 0, 32*1024)
	return &b
}

func pooledIoCopy(dst io.Writer, src io.Reader) {
	buf := bufferPool.Get().(*[]byte)
	defer bufferPool.Put(buf)

	// CopyBuffer only uses buf up to its length and panics if it is 0, so
	// extend it to its capacity.
	bufCap := cap(*buf)
	b := *buf
	io.CopyBuffer(dst, src, b[0:bufCap:bufCap])
}

// connHijackerTransport remembers what the backend sent while the request was
// being upgraded, so it can be replayed to the client.
type connHijackerTransport struct {
	Conn   net.Conn
	Replay []byte
}

type hijackedConn struct {
	net.Conn
	hj *connHijackerTransport
}

func (c *hijackedConn) Read(b []byte) (n int, err error) {
	n, err = c.Conn.Read(b)
	c.hj.Replay = append(c.hj.Replay, b[:n]...)
	return
}

func newConnHijackerTransport(dial func(network, addr string) (net.Conn, error)) (*connHijackerTransport, func(network, addr string) (net.Conn, error)) {
	buf := bufferPool.Get().(*[]byte)
	b := *buf
	hj := &connHijackerTransport{nil, b[:0]}
	return hj, func(network, addr string) (net.Conn, error) {
		c, err := dial(network, addr)
		hj.Conn = c
		return &hijackedConn{c, hj}, err
	}
}

// serveUpgraded relays an upgraded (e.g. websocket) connection.
func serveUpgraded(conn net.Conn, transport interface{}) error {
	hj, ok := transport.(*connHijackerTransport)
	if !ok {
		return nil
	}
	backendConn := hj.Conn
	if _, err := conn.Write(hj.Replay); err != nil {
		return err
	}
	if cap(hj.Replay) <= maxReplaySize {
		bufferPool.Put(&hj.Replay)
	}
	defer backendConn.Close()

	done := make(chan struct{}, 2)
	go func() {
		pooledIoCopy(conn, backendConn)
		done <- struct{}{}
	}()
	go func() {
		pooledIoCopy(backendConn, conn)
		done <- struct{}{}
	}()
	<-done
	return nil
}
