// Package bug reproduces the shape of WireGuard/wireguard-go commit d3ff2d6
// (https://github.com/WireGuard/wireguard-go/commit/d3ff2d6b62b095f37582affe84e267d7e5be88c6,
// "device: clear pointers when returning elems to pools"): queue elements are
// recycled through Device.PutInboundElement / PutOutboundElement, which put
// them back into their sync.Pools still pointing at the message buffer (already
// handed back to the buffer pool separately), the packet slice into it, the
// keypair, the endpoint or the peer. Idle pooled elements keep those objects
// alive and alias memory now owned by someone else.
// Check: noreset (the Puts in PutInboundElement and PutOutboundElement).
package bug

import (
	"net/netip"
	"sync"
	"sync/atomic"
)

const MaxMessageSize = 1 << 16

const (
	AtomicFalse = int32(iota)
	AtomicTrue
)

type Keypair struct {
	localIndex uint32
	sendKey    [32]byte
}

type Endpoint interface {
	DstIP() netip.Addr
}

type Peer struct {
	endpoint Endpoint
	inbound  chan *QueueInboundElement
}

type Device struct {
	pool struct {
		messageBufferPool   *sync.Pool
		inboundElementPool  *sync.Pool
		outboundElementPool *sync.Pool
	}
}

type QueueInboundElement struct {
	dropped int32
	sync.Mutex
	buffer   *[MaxMessageSize]byte
	packet   []byte
	counter  uint64
	keypair  *Keypair
	endpoint Endpoint
}

func (elem *QueueInboundElement) Drop() {
	atomic.StoreInt32(&elem.dropped, AtomicTrue)
}

func (elem *QueueInboundElement) IsDropped() bool {
	return atomic.LoadInt32(&elem.dropped) == AtomicTrue
}

type QueueOutboundElement struct {
	dropped int32
	sync.Mutex
	buffer  *[MaxMessageSize]byte // slice holding the packet data
	packet  []byte                // slice of "buffer" (always!)
	nonce   uint64                // nonce for encryption
	keypair *Keypair              // keypair for encryption
	peer    *Peer                 // related peer
}

func (elem *QueueOutboundElement) IsDropped() bool {
	return atomic.LoadInt32(&elem.dropped) == AtomicTrue
}

func (device *Device) PopulatePools() {
	device.pool.messageBufferPool = &sync.Pool{
		New: func() interface{} {
			return new([MaxMessageSize]byte)
		},
	}
	device.pool.inboundElementPool = &sync.Pool{
		New: func() interface{} {
			return new(QueueInboundElement)
		},
	}
	device.pool.outboundElementPool = &sync.Pool{
		New: func() interface{} {
			return new(QueueOutboundElement)
		},
	}
}

func (device *Device) GetMessageBuffer() *[MaxMessageSize]byte {
	return device.pool.messageBufferPool.Get().(*[MaxMessageSize]byte)
}

func (device *Device) PutMessageBuffer(msg *[MaxMessageSize]byte) {
	device.pool.messageBufferPool.Put(msg)
}

func (device *Device) GetInboundElement() *QueueInboundElement {
	return device.pool.inboundElementPool.Get().(*QueueInboundElement)
}

func (device *Device) PutInboundElement(msg *QueueInboundElement) {
	device.pool.inboundElementPool.Put(msg) // want `noreset`
}

func (device *Device) GetOutboundElement() *QueueOutboundElement {
	return device.pool.outboundElementPool.Get().(*QueueOutboundElement)
}

func (device *Device) PutOutboundElement(msg *QueueOutboundElement) {
	device.pool.outboundElementPool.Put(msg) // want `noreset`
}

func (device *Device) NewOutboundElement() *QueueOutboundElement {
	elem := device.GetOutboundElement()
	elem.dropped = AtomicFalse
	elem.buffer = device.GetMessageBuffer()
	elem.Mutex = sync.Mutex{}
	elem.nonce = 0
	elem.keypair = nil
	elem.peer = nil
	return elem
}

// receive queues a decrypted-to-be packet read into buffer for peer.
func (device *Device) receive(peer *Peer, buffer *[MaxMessageSize]byte, n int, keypair *Keypair, endpoint Endpoint) {
	elem := device.GetInboundElement()
	elem.packet = buffer[:n]
	elem.buffer = buffer
	elem.keypair = keypair
	elem.dropped = AtomicFalse
	elem.endpoint = endpoint
	elem.counter = 0
	elem.Mutex = sync.Mutex{}

	select {
	case peer.inbound <- elem:
	default:
		device.PutMessageBuffer(elem.buffer)
		device.PutInboundElement(elem)
	}
}

func (device *Device) RoutineSequentialReceiver(peer *Peer, deliver func([]byte)) {
	var elem *QueueInboundElement

	defer func() {
		if elem != nil {
			if !elem.IsDropped() {
				device.PutMessageBuffer(elem.buffer)
			}
			device.PutInboundElement(elem)
		}
	}()

	for {
		if elem != nil {
			if !elem.IsDropped() {
				device.PutMessageBuffer(elem.buffer)
			}
			device.PutInboundElement(elem)
			elem = nil
		}

		var elemOk bool
		elem, elemOk = <-peer.inbound
		if !elemOk {
			return
		}
		peer.endpoint = elem.endpoint
		deliver(elem.packet)
	}
}

func (device *Device) sendElement(elem *QueueOutboundElement, write func([]byte) error) error {
	err := write(elem.packet)
	device.PutMessageBuffer(elem.buffer)
	device.PutOutboundElement(elem)
	return err
}
