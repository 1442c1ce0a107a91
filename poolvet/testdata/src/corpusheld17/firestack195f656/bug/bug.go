// Package bug reproduces the shape of celzero/firestack commit 195f656
// (https://github.com/celzero/firestack/commit/195f656c89566e6cccf6af6ce37acf8d6dc328d0,
// "netstack/dispatchers: decRef just the once"). The TUN read dispatcher
// wraps each read in a reference-counted packet buffer (the last DecRef
// gives it back to its pool), registers a deferred DecRef, and still drops
// the reference explicitly on every early return (bad link header, no data,
// unknown IP version): on those paths the packet is released twice. On the
// normal path the goroutine that injects the packet only takes its own
// reference once it runs, which may be after the deferred DecRef already
// released the packet.
//
// Check: doubleput (explicit releases of a reference-counted pooled packet
// before returns, on top of a deferred release). Wants on the three explicit
// pkt.DecRef calls; no want on the goroutine (its IncRef races with the
// deferred DecRef).
package bug

import (
	"sync"
	"sync/atomic"
)

type PacketBuffer struct {
	refs    int32
	payload []byte
	hash    uint32
}

var pkPool = sync.Pool{New: func() any { return new(PacketBuffer) }}

func NewPacketBuffer(payload []byte) *PacketBuffer {
	pk := pkPool.Get().(*PacketBuffer)
	pk.refs = 1
	pk.payload = payload
	pk.hash = 0
	return pk
}

func (pk *PacketBuffer) IncRef() { atomic.AddInt32(&pk.refs, 1) }

// DecRef drops one reference; the last one returns the packet to the pool.
func (pk *PacketBuffer) DecRef() {
	if atomic.AddInt32(&pk.refs, -1) > 0 {
		return
	}
	pk.payload = nil
	pk.hash = 0
	pkPool.Put(pk)
}

// ConsumeLinkHeader takes n bytes of link header off the front.
func (pk *PacketBuffer) ConsumeLinkHeader(n int) ([]byte, bool) {
	if len(pk.payload) < n {
		return nil, false
	}
	h := pk.payload[:n]
	pk.payload = pk.payload[n:]
	return h, true
}

// PullUp returns the first n bytes of data.
func (pk *PacketBuffer) PullUp(n int) ([]byte, bool) {
	if len(pk.payload) < n {
		return nil, false
	}
	return pk.payload[:n], true
}

type NetworkProtocolNumber uint32

const (
	IPv4ProtocolNumber NetworkProtocolNumber = 0x0800
	IPv6ProtocolNumber NetworkProtocolNumber = 0x86dd
)

type endpoint struct {
	hdrSize int
	inject  func(p NetworkProtocolNumber, pkt *PacketBuffer)
}

func (e *endpoint) InjectInbound(p NetworkProtocolNumber, pkt *PacketBuffer) { e.inject(p, pkt) }

type readVDispatcher struct {
	read func(b []byte) (int, error)
	e    *endpoint
	buf  []byte
}

func (d *readVDispatcher) pullBuffer(n int) []byte {
	return append([]byte(nil), d.buf[:n]...)
}

// dispatch reads one packet and dispatches it.
func (d *readVDispatcher) dispatch() (bool, error) {
	n, err := d.read(d.buf)
	if n <= 0 || err != nil {
		return false, err
	}

	pkt := NewPacketBuffer(d.pullBuffer(n))
	defer pkt.DecRef()

	var p NetworkProtocolNumber
	if d.e.hdrSize > 0 {
		hdr, ok := pkt.ConsumeLinkHeader(d.e.hdrSize)
		if !ok {
			pkt.DecRef() // want `doubleput`
			return false, nil
		}
		p = NetworkProtocolNumber(uint32(hdr[len(hdr)-2])<<8 | uint32(hdr[len(hdr)-1]))
	} else {
		// guess IPv4 or IPv6 from the version nibble of the first byte
		h, ok := pkt.PullUp(1)
		if !ok {
			pkt.DecRef() // want `doubleput`
			return true, nil
		}
		switch h[0] >> 4 {
		case 4:
			p = IPv4ProtocolNumber
		case 6:
			p = IPv6ProtocolNumber
		default:
			pkt.DecRef() // want `doubleput`
			return true, nil
		}
	}

	go func() {
		pkt.IncRef()
		d.e.InjectInbound(p, pkt)
		pkt.DecRef()
	}()
	return true, nil
}
