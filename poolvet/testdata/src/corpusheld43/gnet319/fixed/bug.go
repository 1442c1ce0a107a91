// Package bug is the fixed twin of panjf2000/gnet#319 (https://github.com/panjf2000/gnet/issues/319),
// following commit dab20e2: sockaddrInet4ToIP overwrites all twelve prefix
// bytes (ten zeros and 0xff,0xff) of the pooled slice before the address, so
// no byte of an earlier connection's IP survives.
// Check: noreset (none expected here).
package bug

import (
	"math/bits"
	"net"
	"sync"
)

const maxPooledSize = 1 << 16

var ipv4InIPv6Prefix = []byte{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff}

// byteSlicePool keeps one sync.Pool per power-of-two capacity.
type byteSlicePool struct {
	pools [17]sync.Pool
}

var bsPool byteSlicePool

func index(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// Get returns a slice of length size; its contents are unspecified.
func (p *byteSlicePool) Get(size int) []byte {
	if size <= 0 || size > maxPooledSize {
		return make([]byte, size)
	}
	idx := index(size)
	if v := p.pools[idx].Get(); v != nil {
		bp := v.(*[]byte)
		return (*bp)[:size]
	}
	return make([]byte, 1<<idx)[:size]
}

// Put hands buf back for reuse.
func (p *byteSlicePool) Put(buf []byte) {
	size := cap(buf)
	if size == 0 || size > maxPooledSize || size != 1<<index(size) {
		return
	}
	buf = buf[:0]
	p.pools[index(size)].Put(&buf)
}

// SockaddrInet4 mirrors unix.SockaddrInet4.
type SockaddrInet4 struct {
	Port int
	Addr [4]byte
}

// SockaddrInet6 mirrors unix.SockaddrInet6.
type SockaddrInet6 struct {
	Port int
	Addr [16]byte
}

// sockaddrInet4ToIP converts a SockaddrInet4 to a net.IP.
func sockaddrInet4ToIP(sa *SockaddrInet4) net.IP {
	ip := bsPool.Get(16)
	// ipv4InIPv6Prefix
	copy(ip[0:12], ipv4InIPv6Prefix)
	copy(ip[12:16], sa.Addr[:])
	return ip
}

func sockaddrInet6ToIP(sa *SockaddrInet6) net.IP {
	ip := bsPool.Get(16)
	copy(ip, sa.Addr[:])
	return ip
}

// SockaddrToTCPAddr converts a socket address to a *net.TCPAddr.
func SockaddrToTCPAddr(sa interface{}) net.Addr {
	switch sa := sa.(type) {
	case *SockaddrInet4:
		return &net.TCPAddr{IP: sockaddrInet4ToIP(sa), Port: sa.Port}
	case *SockaddrInet6:
		return &net.TCPAddr{IP: sockaddrInet6ToIP(sa), Port: sa.Port}
	}
	return nil
}

type conn struct {
	fd         int
	localAddr  net.Addr
	remoteAddr net.Addr
	listenAddr net.Addr
}

func newTCPConn(fd int, localAddr net.Addr, listenAddr net.Addr, sa interface{}) *conn {
	return &conn{fd: fd, localAddr: localAddr, listenAddr: listenAddr, remoteAddr: SockaddrToTCPAddr(sa)}
}

func (c *conn) releaseTCP() {
	if addr, ok := c.localAddr.(*net.TCPAddr); ok && c.localAddr != c.listenAddr {
		bsPool.Put(addr.IP)
	}
	if addr, ok := c.remoteAddr.(*net.TCPAddr); ok {
		bsPool.Put(addr.IP)
	}
	c.localAddr = nil
	c.remoteAddr = nil
}
