// Source: https://github.com/google/gvisor/commit/2b193f80b406c68cc5069d6f3f3c126306286bf5
// ("Fix ref counting for reassembled packet buffers").
//
// Bug: gVisor netstack pools *PacketBuffer in pkPool (a sync.Pool); DecRef
// puts the packet back into the pool when its reference count reaches zero.
// The fragment reassembler takes a reference (pkt.IncRef) on every fragment
// it stores in a hole. When the last hole is filled, process() dropped the
// reassembler's reference on the first fragment (resPkt.DecRef()) and then
// kept using resPkt: it merged the other fragments into it and returned it to
// the IP endpoint, which parsed and delivered it. Once the fragment's
// original owner has released its own reference, that DecRef returns resPkt
// to pkPool, so the reassembled packet is used after it went back to the pool
// ("we previously had a use-after-free bug"). The other fragments were never
// DecRef-ed (a leak).
//
// Fix: process() keeps the reference on resPkt and hands it to the caller,
// DecRef-ing each merged fragment instead; the IPv4/IPv6 endpoints
// `defer resPkt.DecRef()` once they are done with the reassembled packet.
//
// Check: useafterput (at the MergeFragment call in process: resPkt.DecRef()
// may have returned resPkt to pkPool on the line before, and resPkt is then
// written to and returned)
package bug

import (
	"sort"
	"sync"
	"sync/atomic"
)

var pkPool = sync.Pool{
	New: func() interface{} {
		return &PacketBuffer{}
	},
}

type packetBufferRefs struct{ refCount int64 }

func (r *packetBufferRefs) InitRefs() { atomic.StoreInt64(&r.refCount, 1) }

func (r *packetBufferRefs) IncRef() { atomic.AddInt64(&r.refCount, 1) }

func (r *packetBufferRefs) DecRef(destroy func()) {
	if atomic.AddInt64(&r.refCount, -1) == 0 && destroy != nil {
		destroy()
	}
}

type PacketBuffer struct {
	packetBufferRefs

	buf      [][]byte
	consumed int

	NetworkProtocolNumber uint32
	preserveObject        bool
}

type PacketBufferOptions struct {
	Data [][]byte
}

func NewPacketBuffer(opts PacketBufferOptions) *PacketBuffer {
	pk := pkPool.Get().(*PacketBuffer)
	pk.reset()
	pk.buf = append(pk.buf, opts.Data...)
	pk.InitRefs()
	return pk
}

// DecRef decrements the PacketBuffer's refcount. If the refcount is
// decremented to zero, the PacketBuffer is returned to the PacketBuffer
// pool.
func (pk *PacketBuffer) DecRef() {
	pk.packetBufferRefs.DecRef(func() {
		if pk.packetBufferRefs.refCount == 0 && !pk.preserveObject {
			pkPool.Put(pk)
		}
	})
}

func (pk *PacketBuffer) reset() {
	*pk = PacketBuffer{}
}

func (pk *PacketBuffer) MemSize() int {
	n := 0
	for _, v := range pk.buf {
		n += len(v)
	}
	return n
}

// MergeFragment appends the data portion of frag to dst. It modifies
// frag and frag should not be used again.
func MergeFragment(dst, frag *PacketBuffer) {
	dst.buf = append(dst.buf, frag.buf...)
}

type hole struct {
	first  uint16
	last   uint16
	filled bool
	final  bool
	// pkt is the fragment packet if hole is filled.
	pkt *PacketBuffer
}

type reassembler struct {
	memSize int
	proto   uint8
	mu      sync.Mutex
	holes   []hole
	filled  int
	done    bool
	pkt     *PacketBuffer
}

var errFragmentConflict = &fragErr{"conflicting fragments"}

type fragErr struct{ s string }

func (e *fragErr) Error() string { return e.s }

func (r *reassembler) process(first, last uint16, more bool, proto uint8, pkt *PacketBuffer) (*PacketBuffer, uint8, bool, int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return nil, 0, false, 0, nil
	}

	var holeFound bool
	var memConsumed int
	for i := range r.holes {
		currentHole := &r.holes[i]

		if last < currentHole.first || currentHole.last < first {
			continue
		}
		holeFound = true
		if currentHole.filled {
			// Incoming fragment is a duplicate.
			continue
		}
		if first > currentHole.first {
			r.holes = append(r.holes, hole{first: currentHole.first, last: first - 1})
		}
		if last < currentHole.last && more {
			r.holes = append(r.holes, hole{first: last + 1, last: currentHole.last, final: currentHole.final})
			currentHole.final = false
		}
		memConsumed = pkt.MemSize()
		r.memSize += memConsumed
		r.holes[i] = hole{
			first:  first,
			last:   last,
			filled: true,
			final:  currentHole.final,
			pkt:    pkt,
		}
		r.filled++
		if first == 0 {
			r.pkt = pkt
			r.proto = proto
		}

		pkt.IncRef()
		break
	}
	if !holeFound {
		return nil, 0, false, 0, errFragmentConflict
	}

	// Check if all the holes have been filled and we are ready to reassemble.
	if r.filled < len(r.holes) {
		return nil, 0, false, memConsumed, nil
	}

	sort.Slice(r.holes, func(i, j int) bool {
		return r.holes[i].first < r.holes[j].first
	})

	resPkt := r.holes[0].pkt
	resPkt.DecRef()
	for i := 1; i < len(r.holes); i++ {
		MergeFragment(resPkt, r.holes[i].pkt) // want `useafterput`
	}
	return resPkt, r.proto, true, memConsumed, nil
}

type endpoint struct {
	r         *reassembler
	delivered [][]byte
}

// handleFragment is the fragment branch of ipv4's handleValidatedPacket.
func (e *endpoint) handleFragment(start, end uint16, more bool, proto uint8, pkt *PacketBuffer) {
	resPkt, transProtoNum, ready, _, err := e.r.process(start, end, more, proto, pkt)
	if err != nil {
		return
	}
	if !ready {
		return
	}
	pkt = resPkt
	pkt.NetworkProtocolNumber = uint32(transProtoNum)
	for _, v := range pkt.buf {
		e.delivered = append(e.delivered, v)
	}
}
