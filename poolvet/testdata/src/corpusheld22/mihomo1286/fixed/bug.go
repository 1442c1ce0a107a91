// Package bug reproduces the shape of MetaCubeX/mihomo#1286
// (https://github.com/MetaCubeX/mihomo/pull/1286, commit ac2506154 "fix: possibly using
// released buffer in tproxy"): the TProxy local-conn listener goroutine takes a UDP buffer
// from the size-classed allocator (common/pool, one sync.Pool of array pointers per size) and
// reads into it. On any read error it gives the buffer back with pool.Put, but only returns
// when the error is net.ErrClosed; for every other error it falls through and hands buf[:br]
// to handlePacketConn, which wraps it in a packet queued on the tunnel. The tunnel then works
// on (and later Drops, i.e. Puts again) memory the pool may already have handed to the next
// read.
// Check: useafterput (fixed: the buffer is only Put on the path that returns).
package bug

import (
	"errors"
	"math/bits"
	"net"
	"net/netip"
	"sync"
)

// ---- common/pool ----

const UDPBufferSize = 65535

var defaultAllocator = NewAllocator()

// Allocator hands out []byte from one sync.Pool per power-of-two size.
type Allocator struct {
	buffers [11]sync.Pool
}

func NewAllocator() *Allocator {
	return &Allocator{
		buffers: [...]sync.Pool{ // 64B -> 64K
			{New: func() any { return new([1 << 6]byte) }},
			{New: func() any { return new([1 << 7]byte) }},
			{New: func() any { return new([1 << 8]byte) }},
			{New: func() any { return new([1 << 9]byte) }},
			{New: func() any { return new([1 << 10]byte) }},
			{New: func() any { return new([1 << 11]byte) }},
			{New: func() any { return new([1 << 12]byte) }},
			{New: func() any { return new([1 << 13]byte) }},
			{New: func() any { return new([1 << 14]byte) }},
			{New: func() any { return new([1 << 15]byte) }},
			{New: func() any { return new([1 << 16]byte) }},
		},
	}
}

func (alloc *Allocator) Get(size int) []byte {
	switch {
	case size < 0:
		panic("alloc.Get: len out of range")
	case size == 0:
		return nil
	case size > 65536:
		return make([]byte, size)
	default:
		var index uint16
		if size > 64 {
			index = msb(size)
			if size != 1<<index {
				index += 1
			}
			index -= 6
		}
		buffer := alloc.buffers[index].Get()
		switch index {
		case 0:
			return buffer.(*[1 << 6]byte)[:size]
		case 1:
			return buffer.(*[1 << 7]byte)[:size]
		case 2:
			return buffer.(*[1 << 8]byte)[:size]
		case 3:
			return buffer.(*[1 << 9]byte)[:size]
		case 4:
			return buffer.(*[1 << 10]byte)[:size]
		case 5:
			return buffer.(*[1 << 11]byte)[:size]
		case 6:
			return buffer.(*[1 << 12]byte)[:size]
		case 7:
			return buffer.(*[1 << 13]byte)[:size]
		case 8:
			return buffer.(*[1 << 14]byte)[:size]
		case 9:
			return buffer.(*[1 << 15]byte)[:size]
		case 10:
			return buffer.(*[1 << 16]byte)[:size]
		default:
			panic("invalid pool index")
		}
	}
}

func (alloc *Allocator) Put(buf []byte) error {
	if cap(buf) == 0 || cap(buf) > 65536 {
		return nil
	}
	bits := msb(cap(buf))
	if cap(buf) != 1<<bits {
		return errors.New("allocator Put() incorrect buffer size")
	}
	if cap(buf) < 1<<6 {
		return nil
	}
	bits -= 6
	buf = buf[:cap(buf)]
	switch bits {
	case 0:
		alloc.buffers[bits].Put((*[1 << 6]byte)(buf))
	case 1:
		alloc.buffers[bits].Put((*[1 << 7]byte)(buf))
	case 2:
		alloc.buffers[bits].Put((*[1 << 8]byte)(buf))
	case 3:
		alloc.buffers[bits].Put((*[1 << 9]byte)(buf))
	case 4:
		alloc.buffers[bits].Put((*[1 << 10]byte)(buf))
	case 5:
		alloc.buffers[bits].Put((*[1 << 11]byte)(buf))
	case 6:
		alloc.buffers[bits].Put((*[1 << 12]byte)(buf))
	case 7:
		alloc.buffers[bits].Put((*[1 << 13]byte)(buf))
	case 8:
		alloc.buffers[bits].Put((*[1 << 14]byte)(buf))
	case 9:
		alloc.buffers[bits].Put((*[1 << 15]byte)(buf))
	case 10:
		alloc.buffers[bits].Put((*[1 << 16]byte)(buf))
	default:
		panic("invalid pool index")
	}
	return nil
}

func msb(size int) uint16 {
	return uint16(bits.Len32(uint32(size)) - 1)
}

func poolGet(size int) []byte { return defaultAllocator.Get(size) }

func poolPut(buf []byte) error { return defaultAllocator.Put(buf) }

// ---- constant ----

type UDPPacket interface {
	Data() []byte
	Drop()
}

type Tunnel interface {
	HandleUDPPacket(target netip.AddrPort, packet UDPPacket)
}

// ---- listener/tproxy ----

type packet struct {
	pc     net.PacketConn
	lAddr  netip.AddrPort
	buf    []byte
	tunnel Tunnel
}

func (c *packet) Data() []byte { return c.buf }

func (c *packet) Drop() {
	_ = poolPut(c.buf)
	c.buf = nil
}

func handlePacketConn(pc net.PacketConn, tunnel Tunnel, buf []byte, lAddr, rAddr netip.AddrPort) {
	pkt := &packet{pc: pc, lAddr: lAddr, buf: buf, tunnel: tunnel}
	tunnel.HandleUDPPacket(rAddr, pkt)
}

// listenLocalConn reads what the program itself sends to rAddr and passes it on.
func listenLocalConn(lc *net.UDPConn, rAddr, lAddr netip.AddrPort, tunnel Tunnel) {
	go func() {
		for {
			buf := poolGet(UDPBufferSize)
			br, err := lc.Read(buf)
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					poolPut(buf)
					return
				}
			}
			handlePacketConn(lc, tunnel, buf[:br], lAddr, rAddr)
		}
	}()
}
