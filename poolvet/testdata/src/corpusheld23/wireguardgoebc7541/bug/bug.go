// Package bug reproduces the shape of WireGuard/wireguard-go commit ebc7541
// (https://github.com/WireGuard/wireguard-go/commit/ebc7541953269b39cd73d703166b9b8ee7b34e37,
// "Fix shutdown races"): every inbound element is queued twice, on the peer's
// in-order inbound queue and on the shared decryption queue. The sequential
// receiver that drains the inbound queue owns the element and gives it (and its
// message buffer) back to the pool. The decryption worker, when it saw an
// element that had already been marked dropped, also returned it to the pool
// and moved on; the receiver then returned the same element a second time.
// The same commit also fixed the receiver's shutdown path: the element recycled
// at the top of the loop was not cleared, so stopping right after recycling it
// made the deferred cleanup put it back a second time.
// Check: doubleput (1) the PutInboundElement call for a dropped element in
// RoutineDecryption, while the element is still owned by the inbound queue;
// (2) the deferred PutInboundElement in RoutineSequentialReceiver, which puts
// the element the loop already recycled.
package bug

import (
	"sync"
	"sync/atomic"
)

const MaxMessageSize = 1 << 11

var preallocatedBuffers = 0

// QueueInboundElement is one received packet on its way through the device.
type QueueInboundElement struct {
	dropped int32
	mutex   sync.Mutex
	buffer  *[MaxMessageSize]byte
	packet  []byte
	counter uint64
}

// Drop marks the element as dropped.
func (elem *QueueInboundElement) Drop() { atomic.StoreInt32(&elem.dropped, 1) }

// IsDropped reports whether the element was dropped.
func (elem *QueueInboundElement) IsDropped() bool { return atomic.LoadInt32(&elem.dropped) == 1 }

// Device holds the pools and the shared decryption queue.
type Device struct {
	pool struct {
		messageBufferPool       *sync.Pool
		inboundElementPool      *sync.Pool
		messageBufferReuseChan  chan *[MaxMessageSize]byte
		inboundElementReuseChan chan *QueueInboundElement
	}
	queue struct {
		decryption chan *QueueInboundElement
	}
	signals struct {
		stop chan struct{}
	}
}

// Peer holds the in-order inbound queue.
type Peer struct {
	device *Device
	queue  struct {
		inbound chan *QueueInboundElement
	}
	stop chan struct{}
}

// PopulatePools sets up the pools.
func (device *Device) PopulatePools() {
	if preallocatedBuffers == 0 {
		device.pool.messageBufferPool = &sync.Pool{New: func() interface{} { return new([MaxMessageSize]byte) }}
		device.pool.inboundElementPool = &sync.Pool{New: func() interface{} { return new(QueueInboundElement) }}
		return
	}
	device.pool.messageBufferReuseChan = make(chan *[MaxMessageSize]byte, preallocatedBuffers)
	device.pool.inboundElementReuseChan = make(chan *QueueInboundElement, preallocatedBuffers)
}

// GetMessageBuffer takes a message buffer from the pool.
func (device *Device) GetMessageBuffer() *[MaxMessageSize]byte {
	if preallocatedBuffers == 0 {
		return device.pool.messageBufferPool.Get().(*[MaxMessageSize]byte)
	}
	return <-device.pool.messageBufferReuseChan
}

// PutMessageBuffer returns a message buffer to the pool.
func (device *Device) PutMessageBuffer(msg *[MaxMessageSize]byte) {
	if preallocatedBuffers == 0 {
		device.pool.messageBufferPool.Put(msg)
	} else {
		device.pool.messageBufferReuseChan <- msg
	}
}

// GetInboundElement takes an element from the pool.
func (device *Device) GetInboundElement() *QueueInboundElement {
	if preallocatedBuffers == 0 {
		return device.pool.inboundElementPool.Get().(*QueueInboundElement)
	}
	return <-device.pool.inboundElementReuseChan
}

// PutInboundElement clears an element and returns it to the pool.
func (device *Device) PutInboundElement(elem *QueueInboundElement) {
	atomic.StoreInt32(&elem.dropped, 0)
	elem.buffer = nil
	elem.packet = nil
	elem.counter = 0
	if preallocatedBuffers == 0 {
		device.pool.inboundElementPool.Put(elem)
	} else {
		device.pool.inboundElementReuseChan <- elem
	}
}

func (device *Device) addToInboundAndDecryptionQueues(inbound, decryption chan *QueueInboundElement, elem *QueueInboundElement) bool {
	select {
	case inbound <- elem:
		select {
		case decryption <- elem:
			return true
		default:
			elem.Drop()
			elem.mutex.Unlock()
			return false
		}
	default:
		device.PutMessageBuffer(elem.buffer)
		device.PutInboundElement(elem)
		return false
	}
}

// ReceivePacket queues a received packet for decryption and in-order delivery.
func (device *Device) ReceivePacket(peer *Peer, data []byte) {
	elem := device.GetInboundElement()
	elem.buffer = device.GetMessageBuffer()
	elem.packet = elem.buffer[:copy(elem.buffer[:], data)]
	elem.mutex.Lock()
	device.addToInboundAndDecryptionQueues(peer.queue.inbound, device.queue.decryption, elem)
}

func open(p []byte) ([]byte, bool) { return p, len(p) > 0 }

// RoutineDecryption decrypts elements and releases them to the sequential receiver.
func (device *Device) RoutineDecryption() {
	for {
		select {
		case <-device.signals.stop:
			return
		case elem, ok := <-device.queue.decryption:
			if !ok {
				return
			}

			// check if dropped
			if elem.IsDropped() {
				device.PutInboundElement(elem) // want `doubleput`
				continue
			}

			packet, ok := open(elem.packet)
			elem.packet = packet
			if !ok {
				elem.Drop()
				device.PutMessageBuffer(elem.buffer)
				elem.buffer = nil
			}
			elem.mutex.Unlock()
		}
	}
}

// RoutineSequentialReceiver delivers elements in order and recycles them.
func (peer *Peer) RoutineSequentialReceiver(deliver func([]byte)) {
	device := peer.device

	var elem *QueueInboundElement
	var ok bool

	defer func() {
		if elem != nil {
			if elem.buffer != nil {
				device.PutMessageBuffer(elem.buffer)
			}
			device.PutInboundElement(elem) // want `doubleput`
		}
	}()

	for {
		if elem != nil {
			if elem.buffer != nil {
				device.PutMessageBuffer(elem.buffer)
			}
			device.PutInboundElement(elem)
		}

		select {
		case <-peer.stop:
			return
		case elem, ok = <-peer.queue.inbound:
			if !ok {
				return
			}

			// wait for decryption
			elem.mutex.Lock()
			if elem.IsDropped() {
				continue
			}
			deliver(append([]byte(nil), elem.packet...))
		}
	}
}
