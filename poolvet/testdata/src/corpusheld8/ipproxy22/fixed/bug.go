// Package fixed is the fixed twin of corpusheld8/ipproxy22: the pool holds
// *[]byte, as after getlantern/ipproxy#22, so Put does not allocate.
package fixed

import (
	"net"
	"sync"
)

const maxUDPPacketSize = 1 << 17

var udpBufPool = sync.Pool{
	New: func() any {
		b := make([]byte, maxUDPPacketSize)
		return &b
	},
}

func forwardOne(src net.PacketConn, dst net.Conn) error {
	bp := udpBufPool.Get().(*[]byte)
	buf := *bp
	n, _, err := src.ReadFrom(buf)
	if err == nil {
		_, err = dst.Write(buf[:n])
	}
	udpBufPool.Put(bp)
	return err
}

func Forward(src net.PacketConn, dst net.Conn) error {
	for {
		if err := forwardOne(src, dst); err != nil {
			return err
		}
	}
}
