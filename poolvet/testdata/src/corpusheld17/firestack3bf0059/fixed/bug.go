// Package fixed is the fixed twin of celzero/firestack commit 3bf0059
// (https://github.com/celzero/firestack/commit/3bf0059f407a38432cf73c285a3bb8788f868d2d):
// the goroutine's own reference is dropped by pkt.DecRef only on the
// unreachable path; on the reachable path the list's DecRef drops it.
package fixed

import (
	"net/netip"
	"sync"
	"sync/atomic"
)

type PacketBuffer struct {
	refs    int32
	payload []byte
	typ     uint8
}

var pkPool = sync.Pool{New: func() any { return new(PacketBuffer) }}

func NewPacketBuffer(payload []byte) *PacketBuffer {
	pk := pkPool.Get().(*PacketBuffer)
	pk.refs = 1
	pk.payload = payload
	pk.typ = 0
	return pk
}

func (pk *PacketBuffer) IncRef() { atomic.AddInt32(&pk.refs, 1) }

// DecRef drops one reference; the last one returns the packet to the pool.
func (pk *PacketBuffer) DecRef() {
	if atomic.AddInt32(&pk.refs, -1) > 0 {
		return
	}
	pk.payload = nil
	pk.typ = 0
	pkPool.Put(pk)
}

type PacketBufferList struct {
	data []*PacketBuffer
}

func (l *PacketBufferList) PushBack(pk *PacketBuffer) { l.data = append(l.data, pk) }

// DecRef drops one reference of every packet in the list.
func (l *PacketBufferList) DecRef() {
	for _, pk := range l.data {
		pk.DecRef()
	}
	l.data = nil
}

type endpoint interface {
	WritePackets(l PacketBufferList) (int, error)
}

type pinger interface {
	Ping(src, dst netip.Addr, data []byte) bool
}

type icmpForwarder struct {
	ep endpoint
	h  pinger
}

const echoReply = 0

func (f *icmpForwarder) icmpErr4(pkt *PacketBuffer) error {
	reply := NewPacketBuffer(append([]byte(nil), pkt.payload...))
	var pout PacketBufferList
	pout.PushBack(reply)
	defer pout.DecRef()
	_, err := f.ep.WritePackets(pout)
	return err
}

func (f *icmpForwarder) reply4(src, dst netip.Addr, pkt *PacketBuffer, logErr func(error)) {
	data := pkt.payload
	// the pinger goroutine owns one reference of its own
	pkt.IncRef()
	go func() {
		var err error
		if !f.h.Ping(src, dst, data) {
			defer pkt.DecRef()
			err = f.icmpErr4(pkt)
		} else {
			pkt.typ = echoReply
			var pout PacketBufferList
			pout.PushBack(pkt)
			defer pout.DecRef()
			_, err = f.ep.WritePackets(pout)
		}
		logErr(err)
	}()
}
