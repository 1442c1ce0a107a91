// Package bug reproduces the shape of caddyserver/caddy#2541
// (https://github.com/caddyserver/caddy/issues/2541): a staticcheck SA6002
// clean-up (commit
// https://github.com/caddyserver/caddy/commit/d7ccd7d2a9bb4c05d6f39cfc1967364740b96643)
// changed the proxy's bufferPool.Put(buf) calls to bufferPool.Put(&buf), but
// left the pool's New function returning a []byte and every Get asserting
// .([]byte). From then on the pool receives *[]byte values: the next Get that
// picks one up in pooledIoCopy or newConnHijackerTransport panics with
// "interface conversion: interface {} is *[]uint8, not []uint8". Both the
// deferred Put in pooledIoCopy and the Put of the websocket replay buffer were
// changed. The follow-up commit
// https://github.com/caddyserver/caddy/commit/1430e6c3645e037cc9d45c76100713f82683cc71
// makes createBuffer return a *[]uint8 and asserts that type on Get.
// Check: typemismatch (the Put in pooledIoCopy and the Put of hj.Replay).
package bug

import (
	"io"
	"log"
	"net"
	"sync"
)

var bufferPool = sync.Pool{New: createBuffer}

const maxReplayBuffer = 64 * 1024

func createBuffer() interface{} {
	return make([]byte, 0, 32*1024)
}

func pooledIoCopy(dst io.Writer, src io.Reader) {
	buf := bufferPool.Get().([]byte)
	defer bufferPool.Put(&buf) // want `typemismatch`

	// CopyBuffer only uses buf up to its length and panics if it's 0.
	// Due to that we extend buf's length to its capacity here and
	// ensure it's always non-zero.
	bufCap := cap(buf)
	if _, err := io.CopyBuffer(dst, src, buf[0:bufCap:bufCap]); err != nil {
		log.Println("[ERROR] failed to copy buffer: ", err)
	}
}

// connHijackerTransport remembers the upstream connection and every byte read
// from it during the handshake, so a websocket upgrade can replay them.
type connHijackerTransport struct {
	Dial   func(network, addr string) (net.Conn, error)
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

func (c *hijackedConn) Close() error {
	return nil
}

func newConnHijackerTransport(dial func(network, addr string) (net.Conn, error)) *connHijackerTransport {
	hj := &connHijackerTransport{Replay: bufferPool.Get().([]byte)[:0]}
	hj.Dial = func(network, addr string) (net.Conn, error) {
		c, err := dial(network, addr)
		hj.Conn = c
		return &hijackedConn{c, hj}, err
	}
	return hj
}

// serveWebsocket splices the client connection with the upstream connection
// after replaying what the transport already read from upstream.
func serveWebsocket(conn net.Conn, hj *connHijackerTransport) error {
	defer conn.Close()

	backendConn := hj.Conn
	if _, err := conn.Write(hj.Replay); err != nil {
		return err
	}
	if cap(hj.Replay) <= maxReplayBuffer {
		bufferPool.Put(&hj.Replay) // want `typemismatch`
	}

	errc := make(chan error, 1)
	go func() {
		pooledIoCopy(backendConn, conn)
		errc <- nil
	}()
	pooledIoCopy(conn, backendConn)
	return <-errc
}
