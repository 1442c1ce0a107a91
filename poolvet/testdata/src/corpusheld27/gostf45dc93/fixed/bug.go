// Package bug reproduces the shape of go-gost/gost commit f45dc93
// (https://github.com/go-gost/gost/commit/f45dc93e9208eae268325ca5802478e2168bc66c):
// gost's bufpool keeps one sync.Pool per buffer size class and stored plain
// []byte values in them. Put boxed the slice header into an interface on
// every call, an allocation per packet on the UDP relay paths that the pool
// was meant to avoid. The fix stores *[]byte in the pools and changes
// Get/Put (and their callers) to pass the pointer.
//
// Check: nonpointer (Put stores a []byte value into a sync.Pool).
package bug

import (
	"bytes"
	"errors"
	"net"
	"sync"
)

type sizedPool struct {
	size int
	pool sync.Pool
}

var pools = []*sizedPool{
	newSizedPool(128),
	newSizedPool(512),
	newSizedPool(1024),
	newSizedPool(4096),
	newSizedPool(16 * 1024),
	newSizedPool(32 * 1024),
	newSizedPool(64 * 1024),
	newSizedPool(65 * 1024),
}

func newSizedPool(size int) *sizedPool {
	return &sizedPool{
		size: size,
		pool: sync.Pool{
			New: func() interface{} {
				b := make([]byte, size)
				return &b
			},
		},
	}
}

// Get returns a buffer of the given size.
func Get(size int) *[]byte {
	for i := range pools {
		if size <= pools[i].size {
			b := pools[i].pool.Get().(*[]byte)
			*b = (*b)[:size]
			return b
		}
	}
	b := make([]byte, size)
	return &b
}

// Put returns a buffer to the pool of its size class.
func Put(b *[]byte) {
	for i := range pools {
		if cap(*b) == pools[i].size {
			pools[i].pool.Put(b)
		}
	}
}

// UDPConn relays shadowsocks-style UDP packets that carry a target address
// header in front of the payload.
type UDPConn struct {
	net.PacketConn
	raddr      net.Addr
	bufferSize int
}

// ReadFrom reads one packet and strips its address header.
func (c *UDPConn) ReadFrom(b []byte) (n int, addr net.Addr, err error) {
	rbuf := Get(c.bufferSize)
	defer Put(rbuf)

	n, _, err = c.PacketConn.ReadFrom(*rbuf)
	if err != nil {
		return
	}
	addrLen, host, err := readAddr(bytes.NewReader((*rbuf)[:n]))
	if err != nil {
		return
	}
	n = copy(b, (*rbuf)[addrLen:n])
	addr, err = net.ResolveUDPAddr("udp", host)
	return
}

// WriteTo prefixes b with the address header and sends it.
func (c *UDPConn) WriteTo(b []byte, addr net.Addr) (n int, err error) {
	wbuf := Get(c.bufferSize)
	defer Put(wbuf)

	addrLen := encodeAddr(*wbuf, addr.String())
	n = copy((*wbuf)[addrLen:], b)
	_, err = c.PacketConn.WriteTo((*wbuf)[:addrLen+n], c.raddr)
	return
}

func readAddr(r *bytes.Reader) (int, string, error) {
	l, err := r.ReadByte()
	if err != nil {
		return 0, "", err
	}
	host := make([]byte, l)
	if _, err := r.Read(host); err != nil {
		return 0, "", errors.New("short address")
	}
	return 1 + int(l), string(host), nil
}

func encodeAddr(b []byte, host string) int {
	b[0] = byte(len(host))
	return 1 + copy(b[1:], host)
}
