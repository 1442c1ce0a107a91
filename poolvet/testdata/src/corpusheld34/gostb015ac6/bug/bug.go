// Package bug reproduces the shape of ginuerzh/gost commit b015ac6
// (https://github.com/ginuerzh/gost/commit/b015ac660ac3a23bb4692d9061b2afe0f3fbc90e,
// "fix buffer size"): gost keeps three size-class pools (sPool 2 KiB, mPool 8 KiB,
// lPool 32 KiB). In the TUN handler's transportTun, the goroutine that relays
// packets from the peer connection to the tun device takes its read buffer from
// sPool but the deferred release hands it to mPool. mPool then holds 2 KiB buffers
// among its 8 KiB ones, and every later mPool user that expects a medium buffer
// gets a small one. The fix defers sPool.Put instead. (The pools are rendered here
// with array pointers, so the size class is part of the pooled type.)
//
// Check: typemismatch (a *[smallBufferSize]byte is put into the pool whose New
// returns *[mediumBufferSize]byte; report at the deferred mPool.Put).
package bug

import (
	"errors"
	"log"
	"net"
	"sync"
)

const (
	smallBufferSize  = 2 * 1024  // 2KB small buffer
	mediumBufferSize = 8 * 1024  // 8KB medium buffer
	largeBufferSize  = 32 * 1024 // 32KB large buffer
)

var (
	sPool = sync.Pool{
		New: func() any { return new([smallBufferSize]byte) },
	}
	mPool = sync.Pool{
		New: func() any { return new([mediumBufferSize]byte) },
	}
	lPool = sync.Pool{
		New: func() any { return new([largeBufferSize]byte) },
	}
)

var errShortPacket = errors.New("short packet")

type tunHandler struct {
	routes sync.Map // string(src ip) -> net.Addr
	chExit chan struct{}
}

func packetAddrs(b []byte) (src, dst net.IP, ok bool) {
	if len(b) >= 20 && b[0]>>4 == 4 {
		return net.IP(b[12:16]), net.IP(b[16:20]), true
	}
	if len(b) >= 40 && b[0]>>4 == 6 {
		return net.IP(b[8:24]), net.IP(b[24:40]), true
	}
	return nil, nil, false
}

func (h *tunHandler) findRouteFor(dst net.IP) net.Addr {
	if v, ok := h.routes.Load(dst.String()); ok {
		return v.(net.Addr)
	}
	return nil
}

func (h *tunHandler) transportTun(tun net.Conn, conn net.PacketConn, raddr net.Addr) error {
	errc := make(chan error, 1)

	// tun -> peer
	go func() {
		for {
			err := func() error {
				bp := sPool.Get().(*[smallBufferSize]byte)
				defer sPool.Put(bp)
				b := bp[:]

				n, err := tun.Read(b)
				if err != nil {
					select {
					case h.chExit <- struct{}{}:
					default:
					}
					return err
				}
				src, dst, ok := packetAddrs(b[:n])
				if !ok {
					log.Printf("[tun] unknown packet")
					return nil
				}
				if raddr != nil {
					_, err := conn.WriteTo(b[:n], raddr)
					return err
				}
				addr := h.findRouteFor(dst)
				if addr == nil {
					log.Printf("[tun] no route for %s -> %s", src, dst)
					return nil
				}
				_, err = conn.WriteTo(b[:n], addr)
				return err
			}()
			if err != nil {
				errc <- err
				return
			}
		}
	}()

	// peer -> tun
	go func() {
		for {
			err := func() error {
				bp := sPool.Get().(*[smallBufferSize]byte)
				defer mPool.Put(bp) // want `typemismatch`
				b := bp[:]

				n, addr, err := conn.ReadFrom(b)
				if err != nil && err != errShortPacket {
					return err
				}
				src, dst, ok := packetAddrs(b[:n])
				if !ok {
					log.Printf("[tun] unknown packet")
					return nil
				}
				if raddr != nil {
					_, err := tun.Write(b[:n])
					return err
				}
				h.routes.Store(src.String(), addr)
				if to := h.findRouteFor(dst); to != nil {
					_, err := conn.WriteTo(b[:n], to)
					return err
				}
				_, err = tun.Write(b[:n])
				return err
			}()
			if err != nil {
				errc <- err
				return
			}
		}
	}()

	return <-errc
}

// copyLarge is another pool user, shown for the size classes in use.
func copyLarge(dst net.Conn, src net.Conn) error {
	bp := lPool.Get().(*[largeBufferSize]byte)
	defer lPool.Put(bp)
	for {
		n, err := src.Read(bp[:])
		if n > 0 {
			if _, werr := dst.Write(bp[:n]); werr != nil {
				return werr
			}
		}
		if err != nil {
			return err
		}
	}
}

// relayMedium uses mPool the way the rest of gost does.
func relayMedium(dst net.Conn, payload []byte) error {
	bp := mPool.Get().(*[mediumBufferSize]byte)
	defer mPool.Put(bp)
	if len(payload)+2 > len(bp) {
		return errors.New("payload too large")
	}
	bp[0], bp[1] = byte(len(payload)>>8), byte(len(payload))
	n := copy(bp[2:], payload)
	_, err := dst.Write(bp[:2+n])
	return err
}
