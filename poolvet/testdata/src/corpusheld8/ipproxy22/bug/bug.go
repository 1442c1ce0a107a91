// Package bug reproduces the shape of getlantern/ipproxy#22
// (https://github.com/getlantern/ipproxy/pull/22, "More efficient pool with
// pointers"): the pool of UDP forwarding buffers held plain []byte values.
// Every Put boxed the slice header into an interface, so the pool cost one
// 24-byte allocation per packet (the PR's benchmark: 24 B/op, 1 allocs/op
// before, 0 after).
//
// Check: nonpointer (a fixed-size []byte put back into a sync.Pool by value).
package bug

import (
	"net"
	"sync"
)

const maxUDPPacketSize = 1 << 17

// Buffer pool for forwarding UDP packets.
var udpBufPool = sync.Pool{
	New: func() any {
		return make([]byte, maxUDPPacketSize)
	},
}

// forwardOne reads one datagram from src and writes it to dst.
func forwardOne(src net.PacketConn, dst net.Conn) error {
	buf := udpBufPool.Get().([]byte)
	n, _, err := src.ReadFrom(buf)
	if err == nil {
		_, err = dst.Write(buf[:n])
	}
	udpBufPool.Put(buf) // want `nonpointer`
	return err
}

// Forward copies datagrams until an error occurs.
func Forward(src net.PacketConn, dst net.Conn) error {
	for {
		if err := forwardOne(src, dst); err != nil {
			return err
		}
	}
}
