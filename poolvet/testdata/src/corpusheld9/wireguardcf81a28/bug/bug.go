// Package bug reproduces the shape of WireGuard/wireguard-go commit cf81a28
// ("Fixup buffer freeing",
// https://github.com/WireGuard/wireguard-go/commit/cf81a28dd30bd8714432d2ff108d64c7f4b65e50),
// send side: addToNonceQueue makes room in a full nonce queue by popping
// the oldest element, but it returned the buffer of the element being
// queued, not the popped one's. It loops until the send succeeds, so each
// further full round put element.buffer back again, and the element then
// went down the queue with a buffer the pool owned (its consumer puts it
// once more). The project also preallocated buffers on some platforms; here
// the buffer pool is a plain sync.Pool.
//
// Check: doubleput (a field of a parameter, the same object on every
// iteration, put inside a loop; reported at that Put).
package bug

import (
	"sync"
	"sync/atomic"
)

const MaxMessageSize = 1 << 16

type QueueOutboundElement struct {
	dropped int32
	buffer  *[MaxMessageSize]byte
	packet  []byte
}

type Device struct {
	messageBuffers *sync.Pool
	nonce          chan *QueueOutboundElement
}

func NewDevice() *Device {
	return &Device{
		messageBuffers: &sync.Pool{
			New: func() any {
				return new([MaxMessageSize]byte)
			},
		},
		nonce: make(chan *QueueOutboundElement, 1024),
	}
}

func (device *Device) GetMessageBuffer() *[MaxMessageSize]byte {
	return device.messageBuffers.Get().(*[MaxMessageSize]byte)
}

func (device *Device) PutMessageBuffer(msg *[MaxMessageSize]byte) {
	device.messageBuffers.Put(msg)
}

func (device *Device) NewOutboundElement() *QueueOutboundElement {
	return &QueueOutboundElement{
		buffer: device.GetMessageBuffer(),
	}
}

func (elem *QueueOutboundElement) Drop() {
	atomic.StoreInt32(&elem.dropped, 1)
}

func addToNonceQueue(queue chan *QueueOutboundElement, element *QueueOutboundElement, device *Device) {
	for {
		select {
		case queue <- element:
			return
		default:
			select {
			case old := <-queue:
				old.Drop()
				device.PutMessageBuffer(element.buffer) // want `doubleput`
			default:
			}
		}
	}
}

// SendPacket copies packet into a pooled element and queues it.
func (device *Device) SendPacket(packet []byte) {
	elem := device.NewOutboundElement()
	n := copy(elem.buffer[:], packet)
	elem.packet = elem.buffer[:n]
	addToNonceQueue(device.nonce, elem, device)
}
