// Package fixed is the fixed twin of WireGuard/wireguard-go commit cf81a28
// (https://github.com/WireGuard/wireguard-go/commit/cf81a28dd30bd8714432d2ff108d64c7f4b65e50).
// The project's fix: put back the buffer of the popped (dropped) element,
// a different object on each round, and keep the queued element's buffer.
package fixed

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
				device.PutMessageBuffer(old.buffer)
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
