// Source: https://github.com/scionproto/scion/commit/5a026d053bf2a4f92ef9fd966dee3db83bf68da7
// ("fix: Double-free in runProcessor Send path",
// router/underlayproviders/udpip/udpip.go).
//
// Bug: internalLink.Send puts the packet back into the router's PacketPool
// (a channel-based free list) itself when the egress queue is full, and
// returns false. runProcessor, on that false return, counted the drop
// again and called l.pool.Put(p) a second time, so the same *Packet sat in
// the pool twice and could be handed to two receivers at once.
// Fix: Send always consumes the packet; runProcessor just calls
// egressLink.Send(p) and no longer puts it back.
//
// Check: doubleput (at the l.pool.Put(p) in runProcessor after Send has
// already returned the packet to the pool)
package bug

import (
	"errors"
	"sync/atomic"
)

type Counter struct{ n int64 }

func (c *Counter) Inc() { atomic.AddInt64(&c.n, 1) }

type Metrics struct {
	DroppedPacketsInvalid       Counter
	DroppedPacketsBusyProcessor Counter
	DroppedPacketsBusyForwarder [2]Counter
}

type SizeClass int

func ClassOfSize(n int) SizeClass {
	if n > 1024 {
		return 1
	}
	return 0
}

type Packet struct {
	buffer      []byte
	RawPacket   []byte
	Link        Link
	TrafficType int
}

func (p *Packet) reset(headroom int) {
	p.RawPacket = p.buffer[headroom:]
	p.Link = nil
	p.TrafficType = 0
}

// PacketPool allocates and resets packets.
type PacketPool struct {
	pool     chan *Packet
	headroom int
}

func (p *PacketPool) Get() *Packet {
	pkt := <-p.pool
	pkt.reset(p.headroom)
	return pkt
}

// Put returns the given packet to the pool.
func (p *PacketPool) Put(pkt *Packet) {
	p.pool <- pkt
}

type Link interface {
	Send(p *Packet) bool
}

type internalLink struct {
	procQ    chan *Packet
	procStop chan struct{}
	procDone chan struct{}
	egressQ  chan *Packet
	pool     PacketPool
	metrics  [2]*Metrics
}

var errInvalid = errors.New("invalid packet")

func (l *internalLink) processPacket(pkt *Packet) error {
	if len(pkt.RawPacket) == 0 {
		return errInvalid
	}
	return nil
}

func (l *internalLink) runProcessor() {
	for {
		select {
		case p := <-l.procQ:
			err := l.processPacket(p)
			if err != nil {
				sc := ClassOfSize(len(p.RawPacket))
				l.metrics[sc].DroppedPacketsInvalid.Inc()
				l.pool.Put(p)
				continue
			}
			egressLink := p.Link
			if egressLink == nil {
				sc := ClassOfSize(len(p.RawPacket))
				l.metrics[sc].DroppedPacketsInvalid.Inc()
				l.pool.Put(p)
				continue
			}
			if !egressLink.Send(p) {
				sc := ClassOfSize(len(p.RawPacket))
				l.metrics[sc].DroppedPacketsBusyForwarder[p.TrafficType].Inc()
				l.pool.Put(p) // want `doubleput`
				continue
			}
		case <-l.procStop:
			for {
				select {
				case p := <-l.procQ:
					sc := ClassOfSize(len(p.RawPacket))
					l.metrics[sc].DroppedPacketsBusyProcessor.Inc()
					l.pool.Put(p)
				default:
					close(l.procDone)
					return
				}
			}
		}
	}
}

func (l *internalLink) Send(p *Packet) bool {
	// The packet's destination is in the packet's meta-data.
	select {
	case l.egressQ <- p:
	default:
		sc := ClassOfSize(len(p.RawPacket))
		l.metrics[sc].DroppedPacketsBusyForwarder[p.TrafficType].Inc() // Need other drop cause.
		l.pool.Put(p)
		return false
	}
	return true
}
