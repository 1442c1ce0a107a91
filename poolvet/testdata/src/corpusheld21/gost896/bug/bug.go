// Package bug reproduces the shape of go-gost/gost#896
// (https://github.com/go-gost/gost/issues/896, fixed in go-gost/x commit 25cd60d):
// the Shadowsocks connector's Connect takes a 512-byte buffer from the tiered
// bufpool, defers bufpool.Put, encodes the target address into it and passes
// the slice rawaddr[:n] to client.WrapConn. The wrapped conn keeps that slice
// and only writes it to the wire on its first Read/Write, which happens after
// Connect has returned and the deferred Put has recycled the buffer; another
// Connect can overwrite it and the connection asks for the wrong destination.
// The fix encodes the address into a slice owned by the connection.
// Check: useafterput (a view of the pooled buffer is stored in the returned
// conn; report at the return that leaks it past the deferred Put).
package bug

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"
)

// ---- bufpool: tiered pool of byte buffers ----

var pools = []struct {
	size int
	pool sync.Pool
}{
	{size: 128, pool: sync.Pool{New: func() any { b := make([]byte, 128); return &b }}},
	{size: 512, pool: sync.Pool{New: func() any { b := make([]byte, 512); return &b }}},
	{size: 4096, pool: sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}},
}

func bufpoolGet(size int) []byte {
	for i := range pools {
		if size <= pools[i].size {
			b := pools[i].pool.Get().(*[]byte)
			return (*b)[:size]
		}
	}
	return make([]byte, size)
}

func bufpoolPut(b []byte) {
	for i := range pools {
		if cap(b) == pools[i].size {
			b = b[:cap(b)]
			pools[i].pool.Put(&b)
			return
		}
	}
}

// ---- socks address ----

type socksAddr []byte

type addr struct {
	host string
	port uint16
}

func (a *addr) parseFrom(s string) error {
	h, p, err := net.SplitHostPort(s)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return err
	}
	a.host, a.port = h, uint16(n)
	return nil
}

func (a *addr) encode(b []byte) (int, error) {
	if len(a.host) > 255 || len(b) < 4+len(a.host) {
		return 0, errors.New("short buffer")
	}
	b[0] = 0x03
	b[1] = byte(len(a.host))
	n := 2 + copy(b[2:], a.host)
	b[n] = byte(a.port >> 8)
	b[n+1] = byte(a.port)
	return n + 2, nil
}

// ---- shadowsocks client ----

type tcpClientConn struct {
	net.Conn
	target socksAddr
	once   sync.Once
	err    error
}

// Write sends the target address before the first payload.
func (c *tcpClientConn) Write(p []byte) (int, error) {
	c.once.Do(func() { _, c.err = c.Conn.Write(c.target) })
	if c.err != nil {
		return 0, c.err
	}
	return c.Conn.Write(p)
}

type ssClient struct{}

func (ssClient) WrapConn(c net.Conn, target socksAddr) (net.Conn, error) {
	return &tcpClientConn{Conn: c, target: target}, nil
}

// ---- connector ----

type ssConnector struct {
	client         ssClient
	connectTimeout time.Duration
}

func (c *ssConnector) Connect(ctx context.Context, conn net.Conn, network, address string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
		if _, ok := conn.(net.PacketConn); ok {
			return nil, fmt.Errorf("tcp over udp is unsupported")
		}
	default:
		return nil, fmt.Errorf("network %s is unsupported", network)
	}

	a := addr{}
	if err := a.parseFrom(address); err != nil {
		return nil, err
	}
	rawaddr := bufpoolGet(512)
	defer bufpoolPut(rawaddr)

	n, err := a.encode(rawaddr)
	if err != nil {
		return nil, err
	}

	if c.connectTimeout > 0 {
		conn.SetDeadline(time.Now().Add(c.connectTimeout))
		defer conn.SetDeadline(time.Time{})
	}

	target := socksAddr(rawaddr[:n])
	conn, err = c.client.WrapConn(conn, target)
	if err != nil {
		return nil, err
	}

	return conn, nil // want `useafterput`
}
