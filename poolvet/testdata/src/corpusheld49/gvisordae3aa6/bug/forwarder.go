// Source: https://github.com/google/gvisor/issues/8448
// ("Possible PacketBuffer reference count issues with fdbased tun interface
// and UDP", reported from the ligolo-ng tunnelling tool, see also
// https://github.com/nicocha30/ligolo-ng/issues/21), fixed by
// https://github.com/google/gvisor/commit/dae3aa6eee9efcfa547f59e40232181dd24e1053
// ("netstack: fix UDP forwarder refcount bug").
//
// Bug: netstack recycles packets through pkPool (a sync.Pool); DecRef puts
// the packetBuffer back into the pool when the last reference is dropped. The
// fdbased link endpoint creates a packet per read and `defer pkt.DecRef()`s
// it once DeliverNetworkPacket returns. The UDP forwarder's HandlePacket
// stored that packet in the ForwarderRequest it hands to the user's handler
// without taking a reference of its own. Tunnelling tools (ligolo-ng,
// tun2socks-style proxies) call r.CreateEndpoint from a new goroutine, so by
// the time CreateEndpoint reads r.pkt (Network(), NICID, ...) the dispatcher
// has already put the packet back into pkPool and it may be reused by another
// packet: "panic: PullUp failed" in CreateEndpoint.
//
// Fix: HandlePacket stores pkt.IncRef() in the request, so the request owns
// a reference and the dispatcher's DecRef no longer releases the packet.
//
// Check: useafterput (at the dispatcher's deferred pkt.DecRef(): the packet
// goes back to the pool while the ForwarderRequest handed to a goroutine
// still holds it)
package bug

import (
	"sync"
	"sync/atomic"
)

type packetBufferRefs struct{ refCount int64 }

func (r *packetBufferRefs) InitRefs() { atomic.StoreInt64(&r.refCount, 1) }

func (r *packetBufferRefs) IncRef() { atomic.AddInt64(&r.refCount, 1) }

func (r *packetBufferRefs) DecRef(destroy func()) {
	if atomic.AddInt64(&r.refCount, -1) == 0 && destroy != nil {
		destroy()
	}
}

var pkPool = sync.Pool{
	New: func() any {
		return &packetBuffer{}
	},
}

type PacketBufferOptions struct {
	Payload []byte
}

// PacketBufferPtr is a pointer to a PacketBuffer.
type PacketBufferPtr struct {
	*packetBuffer
}

type packetBuffer struct {
	packetBufferRefs

	buf []byte

	NetworkProtocolNumber uint32
	NICID                 int32
}

func NewPacketBuffer(opts PacketBufferOptions) PacketBufferPtr {
	pk := pkPool.Get().(*packetBuffer)
	pk.reset()
	pk.buf = append(pk.buf, opts.Payload...)
	pk.InitRefs()
	return PacketBufferPtr{packetBuffer: pk}
}

// IncRef increments the PacketBuffer's refcount.
func (pk PacketBufferPtr) IncRef() PacketBufferPtr {
	pk.packetBufferRefs.IncRef()
	return PacketBufferPtr{
		packetBuffer: pk.packetBuffer,
	}
}

// DecRef decrements the PacketBuffer's refcount. If the refcount is
// decremented to zero, the PacketBuffer is returned to the PacketBuffer
// pool.
func (pk *PacketBufferPtr) DecRef() {
	pk.packetBufferRefs.DecRef(func() {
		pk.buf = nil
		pkPool.Put(pk.packetBuffer)
	})
	pk.packetBuffer = nil
}

func (pk *packetBuffer) reset() {
	*pk = packetBuffer{}
}

// Network returns the network header.
func (pk PacketBufferPtr) Network() []byte {
	if len(pk.buf) < 20 {
		panic("PullUp failed")
	}
	return pk.buf[:20]
}

type TransportEndpointID struct {
	LocalPort  uint16
	RemotePort uint16
}

// Forwarder is a session request forwarder.
type Forwarder struct {
	handler func(*ForwarderRequest)
}

func NewForwarder(handler func(*ForwarderRequest)) *Forwarder {
	return &Forwarder{handler: handler}
}

// HandlePacket handles all packets.
func (f *Forwarder) HandlePacket(id TransportEndpointID, pkt PacketBufferPtr) bool {
	f.handler(&ForwarderRequest{
		id:  id,
		pkt: pkt,
	})

	return true
}

// ForwarderRequest represents a session request received by the forwarder and
// passed to the client.
type ForwarderRequest struct {
	id  TransportEndpointID
	pkt PacketBufferPtr
}

type endpoint struct {
	netProto uint32
	nic      int32
	src, dst []byte
}

// CreateEndpoint creates a connected UDP endpoint for the session request.
func (r *ForwarderRequest) CreateEndpoint() (*endpoint, error) {
	ep := &endpoint{netProto: r.pkt.NetworkProtocolNumber}
	netHdr := r.pkt.Network()
	ep.nic = r.pkt.NICID
	ep.src = append(ep.src, netHdr[12:16]...)
	ep.dst = append(ep.dst, netHdr[16:20]...)
	return ep, nil
}

type readVDispatcher struct {
	defaultHandler func(TransportEndpointID, PacketBufferPtr) bool
	read           func() []byte
}

// dispatch reads one packet from the file descriptor and dispatches it.
func (d *readVDispatcher) dispatch() bool {
	data := d.read()
	if len(data) == 0 {
		return false
	}

	pkt := NewPacketBuffer(PacketBufferOptions{
		Payload: data,
	})
	defer pkt.DecRef() // want `useafterput`

	pkt.NetworkProtocolNumber = 0x0800
	id := TransportEndpointID{LocalPort: 53, RemotePort: 40000}
	d.defaultHandler(id, pkt)
	return true
}

// newTunnelForwarder is how tunnelling tools use the forwarder: the request
// is processed on its own goroutine.
func newTunnelForwarder(out chan<- *endpoint) *Forwarder {
	return NewForwarder(func(r *ForwarderRequest) {
		go func() {
			ep, err := r.CreateEndpoint()
			if err != nil {
				return
			}
			out <- ep
		}()
	})
}
