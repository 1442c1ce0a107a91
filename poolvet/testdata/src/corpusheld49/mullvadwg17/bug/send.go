// Source: https://github.com/mullvad/wireguard-go/pull/17
// ("Fix keepalive flag not being reset when retrieving new packets from pool");
// the flag was introduced by
// https://github.com/mullvad/wireguard-go/commit/b81baf37cc31ef46346ab24986eb566380cbfef5
// ("Fix `keepalive` check").
//
// Bug: Mullvad's wireguard-go fork added a `keepalive bool` field to
// QueueOutboundElement, set by SendKeepalive, so that RoutineSequentialSender
// no longer calls timersDataSent (and the DAITA hooks) for keepalives.
// Outbound elements are recycled through the device's WaitPool (a sync.Pool
// wrapper). Neither clearPointers (run by PutOutboundElement) nor
// NewOutboundElement (run after GetOutboundElement) touches the new field, so
// an element that once carried a keepalive goes back to the pool with
// keepalive == true and the next data packet read from the TUN device into it
// is treated as a keepalive: data-sent timers are not armed and DAITA does
// not see the packet.
//
// Fix: NewOutboundElement resets the flag (elem.keepalive = false) when an
// element is taken from the pool, next to the other per-use fields.
//
// Check: noreset (at the Put in PutOutboundElement: the element is returned
// to the pool with the keepalive flag of its last user still set, and neither
// the put-side clearPointers nor the get-side NewOutboundElement clears it)
package bug

import (
	"sync"
	"sync/atomic"
)

const (
	MaxMessageSize             = 65535
	MessageTransportHeaderSize = 16
	MaxContentSize             = MaxMessageSize - 32
	PreallocatedBuffersPerPool = 0
)

type WaitPool struct {
	pool  sync.Pool
	cond  sync.Cond
	lock  sync.Mutex
	count atomic.Uint32
	max   uint32
}

func NewWaitPool(max uint32, new func() any) *WaitPool {
	p := &WaitPool{pool: sync.Pool{New: new}, max: max}
	p.cond = sync.Cond{L: &p.lock}
	return p
}

func (p *WaitPool) Get() any {
	if p.max != 0 {
		p.lock.Lock()
		for p.count.Load() >= p.max {
			p.cond.Wait()
		}
		p.count.Add(1)
		p.lock.Unlock()
	}
	return p.pool.Get()
}

func (p *WaitPool) Put(x any) {
	p.pool.Put(x)
	if p.max == 0 {
		return
	}
	p.count.Add(^uint32(0))
	p.cond.Signal()
}

type Keypair struct{ remoteIndex uint32 }

type Peer struct {
	device    *Device
	isRunning atomic.Bool
	queue     struct {
		staged   chan *QueueOutboundElement
		outbound chan *QueueOutboundElement
	}
	dataSent int
	sent     [][]byte
}

type Device struct {
	pool struct {
		messageBuffers   *WaitPool
		outboundElements *WaitPool
	}
	read func(buf []byte, offset int) (int, error)
	peer *Peer
}

type QueueOutboundElement struct {
	sync.Mutex
	buffer    *[MaxMessageSize]byte // slice holding the packet data
	packet    []byte                // slice of "buffer" (always!)
	nonce     uint64                // nonce for encryption
	keypair   *Keypair              // keypair for encryption
	peer      *Peer                 // related peer
	keepalive bool                  // is a keepalive message
}

func (device *Device) PopulatePools() {
	device.pool.messageBuffers = NewWaitPool(PreallocatedBuffersPerPool, func() any {
		return new([MaxMessageSize]byte)
	})
	device.pool.outboundElements = NewWaitPool(PreallocatedBuffersPerPool, func() any {
		return new(QueueOutboundElement)
	})
}

func (device *Device) GetMessageBuffer() *[MaxMessageSize]byte {
	return device.pool.messageBuffers.Get().(*[MaxMessageSize]byte)
}

func (device *Device) PutMessageBuffer(msg *[MaxMessageSize]byte) {
	device.pool.messageBuffers.Put(msg)
}

func (device *Device) GetOutboundElement() *QueueOutboundElement {
	return device.pool.outboundElements.Get().(*QueueOutboundElement)
}

func (device *Device) PutOutboundElement(elem *QueueOutboundElement) {
	elem.clearPointers()
	device.pool.outboundElements.Put(elem) // want `noreset`
}

func (device *Device) NewOutboundElement() *QueueOutboundElement {
	elem := device.GetOutboundElement()
	elem.buffer = device.GetMessageBuffer()
	elem.Mutex = sync.Mutex{}
	elem.nonce = 0
	// keypair and peer were cleared (if necessary) by clearPointers.
	return elem
}

// clearPointers clears elem fields that contain pointers.
func (elem *QueueOutboundElement) clearPointers() {
	elem.buffer = nil
	elem.packet = nil
	elem.keypair = nil
	elem.peer = nil
}

// SendKeepalive queues a keepalive if no packets are queued for peer.
func (peer *Peer) SendKeepalive() {
	if len(peer.queue.staged) == 0 && peer.isRunning.Load() {
		elem := peer.device.NewOutboundElement()
		elem.keepalive = true
		select {
		case peer.queue.staged <- elem:
		default:
			peer.device.PutMessageBuffer(elem.buffer)
			peer.device.PutOutboundElement(elem)
		}
	}
}

// RoutineReadFromTUN reads packets from the TUN and stages them for the peer.
func (device *Device) RoutineReadFromTUN() {
	var elem *QueueOutboundElement
	for {
		if elem != nil {
			device.PutMessageBuffer(elem.buffer)
			device.PutOutboundElement(elem)
		}
		elem = device.NewOutboundElement()

		offset := MessageTransportHeaderSize
		size, err := device.read(elem.buffer[:], offset)
		if err != nil {
			device.PutMessageBuffer(elem.buffer)
			device.PutOutboundElement(elem)
			return
		}
		if size == 0 || size > MaxContentSize {
			continue
		}
		elem.packet = elem.buffer[offset : offset+size]

		peer := device.peer
		if peer == nil {
			continue
		}
		if peer.isRunning.Load() {
			peer.queue.staged <- elem
			elem = nil
		}
	}
}

// RoutineSequentialSender sends packets in order and returns them to the pool.
func (peer *Peer) RoutineSequentialSender() {
	device := peer.device
	for elem := range peer.queue.outbound {
		if elem == nil {
			return
		}
		elem.Lock()
		peer.sent = append(peer.sent, append([]byte(nil), elem.packet...))
		if !elem.keepalive {
			peer.dataSent++
		}
		device.PutMessageBuffer(elem.buffer)
		device.PutOutboundElement(elem)
	}
}
