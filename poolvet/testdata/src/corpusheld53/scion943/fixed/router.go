// Source: https://github.com/scionproto/scion/pull/943
// (commit b364af1e229b4bf0bdfe67da6fa09d45eaf2a4ec, "Fix packet recycling
// with libhsr in the go router").
//
// Bug: the border router keeps packet buffers in a leaky free list
// (Router.freePkts, filled by recyclePkt and drained by getPktBuf).
// readHSRInput was changed to allocate a static slice of packets once and
// hand the same slice to libhsr on every loop, but after processing each
// packet it still called r.recyclePkt(rp). The packet went into the free
// list while rpkts[i] kept pointing at it and libhsr filled it again on the
// next loop, so the readPosixInput goroutines could take the same RtrPkt
// from getPktBuf and both writers scribbled over one buffer ("an interesting
// and wide variety of strange errors").
//
// Fix: readHSRInput no longer recycles its static packets; it only calls
// rp.Reset() to clear them for the next read.
//
// Check: useafterput (at r.recyclePkt(rp) in readHSRInput: the packet is put
// on the free list while the rpkts slice keeps it and refills it on the next
// loop)
package fixed

import (
	"net"
	"time"
)

const pktBufSize = 9 * 1024

type Dir int

const (
	DirUnset Dir = iota
	DirSelf
	DirLocal
	DirExternal
)

type RtrPkt struct {
	Raw     []byte
	DirFrom Dir
	DirTo   Dir
	TimeIn  time.Time
	Ingress struct {
		Src   *net.UDPAddr
		Dst   *net.UDPAddr
		IfIDs []uint64
	}
	Egress []uint64
}

func NewRtrPkt() *RtrPkt {
	r := &RtrPkt{}
	r.Raw = make([]byte, pktBufSize)
	return r
}

func (rp *RtrPkt) Reset() {
	// Reset the length of the buffer to the max size.
	rp.Raw = rp.Raw[:cap(rp.Raw)-1]
	rp.DirFrom = DirUnset
	rp.DirTo = DirUnset
	rp.Ingress.Src = nil
	rp.Ingress.Dst = nil
	rp.Ingress.IfIDs = nil
	rp.Egress = rp.Egress[:0]
}

type Router struct {
	// freePkts is a buffered channel for recycled packets. See
	// Router.recyclePkt
	freePkts chan *RtrPkt
}

// getPktBuf implements a leaky buffer list, as described
// here: https://golang.org/doc/effective_go.html#leaky_buffer
func (r *Router) getPktBuf() *RtrPkt {
	select {
	case rp := <-r.freePkts:
		// Got one
		return rp
	default:
		// None available, allocate a new one
		return NewRtrPkt()
	}
}

// recyclePkt readies a packet for the leaky buffer list (see getPktBuf).
func (r *Router) recyclePkt(rp *RtrPkt) {
	rp.Reset()
	select {
	case r.freePkts <- rp:
		// Packet added to free list
	default:
		// Free list full, carry on
	}
}

func (r *Router) processPacket(rp *RtrPkt) {
	if len(rp.Raw) == 0 || rp.DirFrom == DirUnset {
		return
	}
	rp.DirTo = DirExternal
}

// hsrGetPackets stands in for hsr.HSR.GetPackets: libhsr fills the given
// packets in place and reports how many were read.
type hsrGetPackets func(rpkts []*RtrPkt, usedPorts []bool) (int, error)

const maxPkts = 32

// readHSRInput reads batches of packets from libhsr, and dispatches them for
// processing.
func (r *Router) readHSRInput(getPackets hsrGetPackets, nPorts int) {
	// Allocate slice of empty packets.
	rpkts := make([]*RtrPkt, maxPkts)
	for i := range rpkts {
		rpkts[i] = r.getPktBuf()
	}
	usedPorts := make([]bool, nPorts)
	// Run forever.
	for {
		// Read packets from libhsr.
		count, err := getPackets(rpkts, usedPorts)
		if err != nil {
			// Zero the port counters for next loop
			for i := range usedPorts {
				usedPorts[i] = false
			}
			continue
		}
		timeIn := time.Now()
		// Iterate over received packets
		for i := 0; i < count; i++ {
			rp := rpkts[i]
			rp.TimeIn = timeIn
			// Process packet.
			r.processPacket(rp)
			// Reset packet.
			rp.Reset()
		}
		for id := range usedPorts {
			usedPorts[id] = false
		}
	}
}

// readPosixInput reads packets from a single POSIX(/BSD) socket. It retrieves
// buffers via getPktBuf.
func (r *Router) readPosixInput(in *net.UDPConn, dirFrom Dir, q chan *RtrPkt) {
	dst := in.LocalAddr().(*net.UDPAddr)
	for { // Run forever.
		rp := r.getPktBuf()
		rp.DirFrom = dirFrom
		length, src, err := in.ReadFromUDP(rp.Raw)
		if err != nil {
			continue
		}
		rp.TimeIn = time.Now()
		rp.Raw = rp.Raw[:length] // Set the length of the slice
		rp.Ingress.Src = src
		rp.Ingress.Dst = dst
		q <- rp
	}
}

func (r *Router) handleQueue(q chan *RtrPkt) {
	for rp := range q {
		r.processPacket(rp)
		r.recyclePkt(rp)
	}
}
