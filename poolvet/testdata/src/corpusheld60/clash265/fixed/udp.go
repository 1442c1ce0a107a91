// Source: https://github.com/Dreamacro/clash/pull/265
// (commit 4cd8b6f24fb3c5f2b344f4cdc7a8552abb00435a, "Fix: some UDP issues"),
// reported in https://github.com/Dreamacro/clash/issues/268 (point 2: the
// packet handed to the per-packet goroutine must be copied if it is not
// processed immediately).
//
// Bug: the SOCKS5 UDP listener took one buffer from pool.BufPool for the
// whole read loop (returned by a deferred Put when the loop ends) and
// started "go handleSocksUDP(l, buf[:n], remoteAddr)" for every packet. The
// goroutine decodes the packet in place and keeps socks5.Addr, a sub-slice of
// the pooled buffer, as the target of the socket adapter it queues on the
// tunnel, while the loop already reads the next packet into the same memory
// and finally puts the buffer back in the pool.
// Fix: Get a buffer per packet, handle the packet synchronously, and give the
// buffer to the fakeConn (bufRef) which puts it back in the pool on Close;
// error paths put it back immediately.
//
// Check: useafterput (fixed twin: one buffer per packet, owned by the
// fakeConn that puts it back on Close)
package fixed

import (
	"bytes"
	"errors"
	"net"
	"strconv"
	"sync"
)

// ---- common/pool ----

const bufferSize = 20 * 1024

// BufPool provide buffer for relay
var BufPool = sync.Pool{New: func() interface{} { return make([]byte, bufferSize) }}

// ---- component/socks5 ----

// Addr represents a SOCKS address as defined in RFC 1928 section 5.
type Addr []byte

const (
	AtypIPv4       = 1
	AtypDomainName = 3
	AtypIPv6       = 4
)

func (a Addr) String() string {
	var host, port string

	switch a[0] {
	case AtypDomainName:
		hostLen := uint16(a[1])
		host = string(a[2 : 2+hostLen])
		port = strconv.Itoa((int(a[2+hostLen]) << 8) | int(a[2+hostLen+1]))
	case AtypIPv4:
		host = net.IP(a[1 : 1+net.IPv4len]).String()
		port = strconv.Itoa((int(a[1+net.IPv4len]) << 8) | int(a[1+net.IPv4len+1]))
	case AtypIPv6:
		host = net.IP(a[1 : 1+net.IPv6len]).String()
		port = strconv.Itoa((int(a[1+net.IPv6len]) << 8) | int(a[1+net.IPv6len+1]))
	}

	return net.JoinHostPort(host, port)
}

// SplitAddr slices a SOCKS address from beginning of b. Returns nil if failed.
func SplitAddr(b []byte) Addr {
	addrLen := 1
	if len(b) < addrLen {
		return nil
	}

	switch b[0] {
	case AtypDomainName:
		if len(b) < 2 {
			return nil
		}
		addrLen = 1 + 1 + int(b[1]) + 2
	case AtypIPv4:
		addrLen = 1 + net.IPv4len + 2
	case AtypIPv6:
		addrLen = 1 + net.IPv6len + 2
	default:
		return nil
	}

	if len(b) < addrLen {
		return nil
	}

	return b[:addrLen]
}

// DecodeUDPPacket split `packet` to addr payload, and this function is mutable with `packet`
func DecodeUDPPacket(packet []byte) (addr Addr, payload []byte, err error) {
	if len(packet) < 5 {
		err = errors.New("insufficient length of packet")
		return
	}

	// packet[0] and packet[1] are reserved
	if !bytes.Equal(packet[:2], []byte{0, 0}) {
		err = errors.New("reserved fields should be zero")
		return
	}

	if packet[2] != 0 /* fragments */ {
		err = errors.New("discarding fragmented payload")
		return
	}

	addr = SplitAddr(packet[3:])
	if addr == nil {
		err = errors.New("failed to read UDP header")
	}

	payload = packet[3+len(addr):]
	return
}

// ---- adapters/inbound + tunnel ----

// SocketAdapter is a adapter for socks and redir connection
type SocketAdapter struct {
	net.Conn
	target Addr
}

// NewSocket is SocketAdapter generator
func NewSocket(target Addr, conn net.Conn) *SocketAdapter {
	return &SocketAdapter{Conn: conn, target: target}
}

// Tunnel handle relay inbound proxy and outbound proxy
type Tunnel struct {
	queue chan *SocketAdapter
}

// Add request to queue
func (t *Tunnel) Add(req *SocketAdapter) {
	t.queue <- req
}

var tun = &Tunnel{queue: make(chan *SocketAdapter, 1024)}

// ---- proxy/socks ----

type fakeConn struct {
	net.PacketConn
	remoteAddr net.Addr
	targetAddr Addr
	buffer     *bytes.Buffer
	bufRef     []byte
}

func (c *fakeConn) Read(b []byte) (n int, err error) {
	return c.buffer.Read(b)
}

func (c *fakeConn) Write(b []byte) (n int, err error) {
	return c.PacketConn.WriteTo(b, c.remoteAddr)
}

func (c *fakeConn) RemoteAddr() net.Addr {
	return c.remoteAddr
}

func (c *fakeConn) Close() error {
	err := c.PacketConn.Close()
	BufPool.Put(c.bufRef[:cap(c.bufRef)])
	return err
}

type SockUDPListener struct {
	net.PacketConn
	address string
	closed  bool
}

func NewSocksUDPProxy(addr string) (*SockUDPListener, error) {
	l, err := net.ListenPacket("udp", addr)
	if err != nil {
		return nil, err
	}

	sl := &SockUDPListener{l, addr, false}
	go func() {
		for {
			buf := BufPool.Get().([]byte)
			n, remoteAddr, err := l.ReadFrom(buf)
			if err != nil {
				BufPool.Put(buf[:cap(buf)])
				if sl.closed {
					break
				}
				continue
			}
			handleSocksUDP(l, buf[:n], remoteAddr)
		}
	}()

	return sl, nil
}

func (l *SockUDPListener) Close() error {
	l.closed = true
	return l.PacketConn.Close()
}

func handleSocksUDP(pc net.PacketConn, buf []byte, addr net.Addr) {
	target, payload, err := DecodeUDPPacket(buf)
	if err != nil {
		// Unresolved UDP packet, return buffer to the pool
		BufPool.Put(buf[:cap(buf)])
		return
	}
	conn := &fakeConn{
		PacketConn: pc,
		remoteAddr: addr,
		targetAddr: target,
		buffer:     bytes.NewBuffer(payload),
		bufRef:     buf,
	}
	tun.Add(NewSocket(target, conn))
}
