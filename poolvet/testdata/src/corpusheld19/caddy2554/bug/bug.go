// Package bug reproduces the shape of caddyserver/caddy#2554
// (https://github.com/caddyserver/caddy/pull/2554, commits d7ccd7d2a "Lint: fix
// SA6002 of staticcheck #2541" and 1430e6c36 "fix lint non-pointer values in
// sync.Pool allocates memory #2541"): to silence staticcheck's "argument should be
// pointer-like" warning, the proxy's buffer pool Puts were changed to Put(&buf)
// and Put(&hj.Replay), while the pool's New still made a []byte and every Get
// still asserted []byte. The first buffer to come back is a *[]byte, and the next
// pooledIoCopy or hijacking transport that Gets it panics in the type assertion.
// The follow-up commit makes New return a *[]byte, asserts *[]byte on Get and
// puts that pointer back.
// Check: typemismatch (at both Puts: each puts a *[]byte into a pool whose New and
// Get use []byte).
package bug

import (
	"io"
	"net"
	"sync"
)

const maxReplaySize = 64 * 1024

var bufferPool = sync.Pool{New: createBuffer}

func createBuffer() interface{} {
	return make([]byte, 0, 32*1024)
}

func pooledIoCopy(dst io.Writer, src io.Reader) {
	buf := bufferPool.Get().([]byte)
	defer bufferPool.Put(&buf) // want `typemismatch`

	// CopyBuffer only uses buf up to its length and panics if it is 0, so
	// extend it to its capacity.
	bufCap := cap(buf)
	io.CopyBuffer(dst, src, buf[0:bufCap:bufCap])
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
	hj := &connHijackerTransport{nil, bufferPool.Get().([]byte)[:0]}
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
		bufferPool.Put(&hj.Replay) // want `typemismatch`
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
