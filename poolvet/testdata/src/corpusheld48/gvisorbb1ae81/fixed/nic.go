// Source: https://github.com/google/gvisor/commit/bb1ae811f4eb3ba59ab8e64672f06a83bc17fd4c
// ("Prevent PacketBuffers from being returned to the pool too early in nic.",
// pkg/tcpip/stack/nic.go; PacketBuffers had been pooled one day earlier in
// 1b806a230 "Pool PacketBuffers", pkg/tcpip/stack/packet_buffer.go).
// Reported by syzbot (syzbot+10c56102ab3d68689806).
//
// Bug: DeliverNetworkPacket and deliverOutboundPacket lazily create one
// PacketBuffer (packetEPPkt) for all packet endpoints inside the per-endpoint
// callback passed to forEach, and released it with "defer packetEPPkt.DecRef()"
// inside that callback. The defer runs when the callback returns, i.e. after
// the first endpoint; DecRef drops the last reference and puts the
// PacketBuffer back into pkPool. The captured packetEPPkt variable still points
// at it, so the callbacks for the following endpoints Clone a PacketBuffer that
// is already in the pool and may have been handed out again (data race).
//
// Fix: the DecRef moved to a deferred closure of the enclosing function
// (if packetEPPkt != nil { packetEPPkt.DecRef() }), so it runs after the loop
// over all endpoints.
//
// Check: useafterput (the deferred DecRef inside the callback puts the
// PacketBuffer into pkPool while it stays stored in the captured packetEPPkt
// that later callbacks use; two sites, as upstream)
package fixed

import (
	"sync"
	"sync/atomic"
)

// PacketType is the packet type as seen by packet endpoints.
type PacketType uint8

const (
	PacketHost PacketType = iota
	PacketOutgoing
)

var pkPool = sync.Pool{
	New: func() interface{} {
		return &PacketBuffer{}
	},
}

// PacketBufferOptions specifies options for PacketBuffer creation.
type PacketBufferOptions struct {
	ReserveHeaderBytes int
	Data               []byte
}

// A PacketBuffer contains all the data of a network packet.
type PacketBuffer struct {
	refCount int64
	buf      []byte
	reserved int
	pushed   int
	linkHdr  int

	PktType               PacketType
	NetworkProtocolNumber uint16

	preserveObject bool
}

// NewPacketBuffer creates a new PacketBuffer with opts.
func NewPacketBuffer(opts PacketBufferOptions) *PacketBuffer {
	pk := pkPool.Get().(*PacketBuffer)
	pk.reset()
	if opts.ReserveHeaderBytes != 0 {
		pk.buf = append(pk.buf, make([]byte, opts.ReserveHeaderBytes)...)
		pk.reserved = opts.ReserveHeaderBytes
	}
	pk.buf = append(pk.buf, opts.Data...)
	pk.InitRefs()
	return pk
}

// InitRefs sets the reference count to one.
func (pk *PacketBuffer) InitRefs() {
	atomic.StoreInt64(&pk.refCount, 1)
}

// IncRef increments the reference count.
func (pk *PacketBuffer) IncRef() {
	atomic.AddInt64(&pk.refCount, 1)
}

// DecRef decrements the PacketBuffer's refcount. If the refcount is
// decremented to zero, the PacketBuffer is returned to the PacketBuffer
// pool.
func (pk *PacketBuffer) DecRef() {
	if atomic.AddInt64(&pk.refCount, -1) == 0 && !pk.preserveObject {
		pkPool.Put(pk)
	}
}

func (pk *PacketBuffer) reset() {
	*pk = PacketBuffer{}
}

// AvailableHeaderBytes returns the number of bytes currently available for
// headers.
func (pk *PacketBuffer) AvailableHeaderBytes() int {
	return pk.reserved - pk.pushed
}

// ConsumeLinkHeader marks the first n bytes as the link header.
func (pk *PacketBuffer) ConsumeLinkHeader(n int) {
	pk.linkHdr = n
}

// Clone makes a semi-deep copy of pk. The underlying packet payload is
// shared.
func (pk *PacketBuffer) Clone() *PacketBuffer {
	newPk := pkPool.Get().(*PacketBuffer)
	newPk.buf = pk.buf
	newPk.reserved = pk.reserved
	newPk.pushed = pk.pushed
	newPk.linkHdr = pk.linkHdr
	newPk.PktType = pk.PktType
	newPk.NetworkProtocolNumber = pk.NetworkProtocolNumber
	newPk.InitRefs()
	return newPk
}

// PacketEndpoint is a packet socket.
type PacketEndpoint interface {
	HandlePacket(nicID int, local string, netProto uint16, pkt *PacketBuffer)
}

type packetEndpointList struct {
	mu  sync.RWMutex
	eps []PacketEndpoint
}

func (p *packetEndpointList) forEach(fn func(PacketEndpoint)) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	for _, ep := range p.eps {
		fn(ep)
	}
}

// LinkEndpoint is the link layer below the NIC.
type LinkEndpoint interface {
	LinkAddress() string
	AddHeader(local, remote string, protocol uint16, pkt *PacketBuffer)
}

// NetworkEndpoint handles packets of one network protocol.
type NetworkEndpoint interface {
	HandlePacket(pkt *PacketBuffer)
}

type nic struct {
	LinkEndpoint
	id               int
	networkEndpoints map[uint16]NetworkEndpoint
	packetEPs        map[uint16]*packetEndpointList
	packetEPsMu      sync.RWMutex
}

const ethernetProtocolAll = 0x0003

// DeliverNetworkPacket finds the appropriate network protocol endpoint and
// hands the packet over for further processing.
func (n *nic) DeliverNetworkPacket(remote, local string, protocol uint16, pkt *PacketBuffer) {
	networkEndpoint, ok := n.networkEndpoints[protocol]
	if !ok {
		return
	}
	if local == "" {
		local = n.LinkEndpoint.LinkAddress()
	}

	// Deliver to interested packet endpoints without holding NIC lock.
	var packetEPPkt *PacketBuffer
	defer func() {
		if packetEPPkt != nil {
			packetEPPkt.DecRef()
		}
	}()
	deliverPacketEPs := func(ep PacketEndpoint) {
		if packetEPPkt == nil {
			// Packet endpoints hold the full packet.
			packetEPPkt = NewPacketBuffer(PacketBufferOptions{
				Data: pkt.buf,
			})
			packetEPPkt.ConsumeLinkHeader(pkt.linkHdr)
			packetEPPkt.PktType = PacketHost
		}

		clone := packetEPPkt.Clone()
		defer clone.DecRef()
		ep.HandlePacket(n.id, local, protocol, clone)
	}

	n.packetEPsMu.Lock()
	protoEPs, protoEPsOK := n.packetEPs[protocol]
	anyEPs, anyEPsOK := n.packetEPs[ethernetProtocolAll]
	n.packetEPsMu.Unlock()

	if protoEPsOK {
		protoEPs.forEach(deliverPacketEPs)
	}
	if anyEPsOK {
		anyEPs.forEach(deliverPacketEPs)
	}

	networkEndpoint.HandlePacket(pkt)
}

// deliverOutboundPacket delivers outgoing packets to interested endpoints.
func (n *nic) deliverOutboundPacket(remote string, pkt *PacketBuffer) {
	n.packetEPsMu.RLock()
	defer n.packetEPsMu.RUnlock()
	eps, ok := n.packetEPs[ethernetProtocolAll]
	if !ok {
		return
	}

	local := n.LinkAddress()

	var packetEPPkt *PacketBuffer
	defer func() {
		if packetEPPkt != nil {
			packetEPPkt.DecRef()
		}
	}()
	eps.forEach(func(ep PacketEndpoint) {
		if packetEPPkt == nil {
			// Packet endpoints hold the full packet.
			packetEPPkt = NewPacketBuffer(PacketBufferOptions{
				ReserveHeaderBytes: pkt.AvailableHeaderBytes(),
				Data:               pkt.buf[pkt.reserved:],
			})
			n.LinkEndpoint.AddHeader(local, remote, pkt.NetworkProtocolNumber, packetEPPkt)
			packetEPPkt.PktType = PacketOutgoing
		}
		clone := packetEPPkt.Clone()
		defer clone.DecRef()
		ep.HandlePacket(n.id, local, pkt.NetworkProtocolNumber, clone)
	})
}
