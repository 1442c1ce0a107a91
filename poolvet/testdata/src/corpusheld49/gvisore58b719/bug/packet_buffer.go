// Source: https://github.com/google/gvisor/pull/7336
// https://github.com/google/gvisor/commit/e58b719cf92dc1f7f115be955927531eacf3f3c4
// ("packet_buffer: reset packet buffer state in Clone"), pulled into
// tailscale by https://github.com/tailscale/tailscale/pull/4379 ("the packet
// buf Clone path did not reset the packetbuf it was getting from the
// sync.Pool ... could lead to incorrect packet routing ... an information
// leak").
//
// Bug: gVisor netstack recycles *PacketBuffer through pkPool (a sync.Pool).
// DecRef puts the packet back as is when its refcount drops to zero; every
// path that takes one out is expected to call reset() (*pk = PacketBuffer{}).
// NewPacketBuffer and CloneToInbound do, but Clone copies a hand-picked list
// of fields onto the pooled object without resetting it first. Fields not on
// the list (EgressRoute, which carries the link addresses of the previous
// packet's route, and preserveObject) keep the values of the packet that last
// used the object, so a clone handed to a packet endpoint can be written out
// with another packet's source/destination link address.
//
// Fix: Clone calls newPk.reset() right after pkPool.Get(), before copying
// the fields.
//
// Check: noreset (at the pkPool.Put in DecRef: the packet goes back to the
// pool with its EgressRoute and other per-packet state intact, and the Clone
// path takes it out again without resetting it)
package bug

import (
	"sync"
	"sync/atomic"
)

type LinkAddress string

type routeInfo struct {
	NetProto         uint32
	LocalLinkAddress LinkAddress
}

type RouteInfo struct {
	routeInfo

	// RemoteLinkAddress is the link-layer (MAC) address of the next hop.
	RemoteLinkAddress LinkAddress
}

type NetworkPacketInfo struct {
	LocalAddressBroadcast bool
	IsForwardedPacket     bool
}

type buffer struct{ data []byte }

func (b *buffer) Clone() buffer { return buffer{data: b.data} }

type packetBufferRefs struct{ refCount int64 }

func (r *packetBufferRefs) InitRefs() { atomic.StoreInt64(&r.refCount, 1) }

func (r *packetBufferRefs) IncRef() { atomic.AddInt64(&r.refCount, 1) }

func (r *packetBufferRefs) DecRef(destroy func()) {
	if atomic.AddInt64(&r.refCount, -1) == 0 && destroy != nil {
		destroy()
	}
}

type PacketBufferEntry struct{ next, prev *PacketBuffer }

var pkPool = sync.Pool{
	New: func() interface{} {
		return &PacketBuffer{}
	},
}

type PacketBufferOptions struct {
	ReserveHeaderBytes int
	Data               []byte
	IsForwardedPacket  bool
}

type PacketBuffer struct {
	packetBufferRefs
	PacketBufferEntry

	buf      buffer
	reserved int
	pushed   int
	consumed int

	NetworkProtocolNumber   uint32
	TransportProtocolNumber uint32
	Hash                    uint32

	// The following fields are only set by the qdisc layer when the packet
	// is added to a queue.
	EgressRoute RouteInfo

	snatDone bool
	dnatDone bool

	PktType           uint8
	NICID             int32
	NetworkPacketInfo NetworkPacketInfo

	preserveObject bool
}

// NewPacketBuffer creates a new PacketBuffer with opts.
func NewPacketBuffer(opts PacketBufferOptions) *PacketBuffer {
	pk := pkPool.Get().(*PacketBuffer)
	pk.reset()
	if opts.ReserveHeaderBytes != 0 {
		pk.buf.data = append(pk.buf.data, make([]byte, opts.ReserveHeaderBytes)...)
		pk.reserved = opts.ReserveHeaderBytes
	}
	pk.buf.data = append(pk.buf.data, opts.Data...)
	if opts.IsForwardedPacket {
		pk.NetworkPacketInfo.IsForwardedPacket = opts.IsForwardedPacket
	}
	pk.InitRefs()
	return pk
}

// PreserveObject marks this PacketBuffer so it is not recycled by internal
// pooling.
func (pk *PacketBuffer) PreserveObject() {
	pk.preserveObject = true
}

// DecRef decrements the PacketBuffer's refcount. If the refcount is
// decremented to zero, the PacketBuffer is returned to the PacketBuffer
// pool.
func (pk *PacketBuffer) DecRef() {
	pk.packetBufferRefs.DecRef(func() {
		if pk.packetBufferRefs.refCount == 0 && !pk.preserveObject {
			pkPool.Put(pk) // want `noreset`
		}
	})
}

func (pk *PacketBuffer) reset() {
	*pk = PacketBuffer{}
}

// Clone makes a semi-deep copy of pk. The underlying packet payload is
// shared. Hence, no modifications is done to underlying packet payload.
func (pk *PacketBuffer) Clone() *PacketBuffer {
	newPk := pkPool.Get().(*PacketBuffer)
	newPk.PacketBufferEntry = pk.PacketBufferEntry
	newPk.buf = pk.buf.Clone()
	newPk.reserved = pk.reserved
	newPk.pushed = pk.pushed
	newPk.consumed = pk.consumed
	newPk.Hash = pk.Hash
	newPk.NetworkProtocolNumber = pk.NetworkProtocolNumber
	newPk.dnatDone = pk.dnatDone
	newPk.snatDone = pk.snatDone
	newPk.TransportProtocolNumber = pk.TransportProtocolNumber
	newPk.PktType = pk.PktType
	newPk.NICID = pk.NICID
	newPk.NetworkPacketInfo = pk.NetworkPacketInfo
	newPk.InitRefs()
	return newPk
}

// CloneToInbound makes a semi-deep copy of the packet buffer (similar to
// Clone) to be used as an inbound packet.
func (pk *PacketBuffer) CloneToInbound() *PacketBuffer {
	newPk := pkPool.Get().(*PacketBuffer)
	newPk.reset()
	newPk.buf = pk.buf.Clone()
	newPk.InitRefs()
	// Treat unfilled header portion as reserved.
	newPk.reserved = pk.reserved - pk.pushed
	return newPk
}

type nic struct {
	linkAddr LinkAddress
	written  [][2]LinkAddress
}

// WritePacketToRemote sets the egress route and writes the packet.
func (n *nic) WritePacketToRemote(remoteLinkAddr LinkAddress, pkt *PacketBuffer) {
	pkt.EgressRoute = RouteInfo{
		routeInfo: routeInfo{
			NetProto:         pkt.NetworkProtocolNumber,
			LocalLinkAddress: n.linkAddr,
		},
		RemoteLinkAddress: remoteLinkAddr,
	}
	n.AddHeader(pkt)
}

// AddHeader builds the ethernet header from the packet's egress route.
func (n *nic) AddHeader(pkt *PacketBuffer) {
	n.written = append(n.written, [2]LinkAddress{
		pkt.EgressRoute.LocalLinkAddress,
		pkt.EgressRoute.RemoteLinkAddress,
	})
}

type PacketEndpoint interface {
	HandlePacket(nicID int32, netProto uint32, pkt *PacketBuffer)
}

// deliverPacketEPs hands a clone of pkt to every packet endpoint.
func (n *nic) deliverPacketEPs(eps []PacketEndpoint, protocol uint32, pkt *PacketBuffer) {
	for _, ep := range eps {
		clone := pkt.Clone()
		ep.HandlePacket(pkt.NICID, protocol, clone)
		clone.DecRef()
	}
}
