// Package bug reproduces the shape of WireGuard/wireguard-go commit b36d0872
// (https://github.com/WireGuard/wireguard-go/commit/b36d0872044b7c637603f83adfb27f97272c50ac,
// "Fix double free in RoutineReceiveIncoming"): the receive loop owns one
// message buffer taken from the device's WaitPool. When recv fails with a
// temporary error, the loop gives the buffer back to the pool and, while in the
// "death spiral" retry window, sleeps and continues. The next iteration keeps
// receiving into the buffer it already returned, and the next failure puts it
// back into the pool again. With bounded pools (iOS) this double free also
// wedged the routine. The fix takes a fresh buffer before continuing.
//
// Fixed twin: a fresh buffer is taken before retrying.
// Check: doubleput (none expected here).
package bug

import (
	"encoding/binary"
	"errors"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

const (
	MaxMessageSize             = 65535
	MinMessageSize             = 32
	MessageTransportType       = 4
	MessageInitiationType      = 1
	MessageInitiationSize      = 148
	PreallocatedBuffersPerPool = 4096
)

type WaitPool struct {
	pool  sync.Pool
	cond  sync.Cond
	lock  sync.Mutex
	count uint32
	max   uint32
}

func NewWaitPool(max uint32, newFn func() interface{}) *WaitPool {
	p := &WaitPool{pool: sync.Pool{New: newFn}, max: max}
	p.cond = sync.Cond{L: &p.lock}
	return p
}

func (p *WaitPool) Get() interface{} {
	if p.max != 0 {
		p.lock.Lock()
		for atomic.LoadUint32(&p.count) >= p.max {
			p.cond.Wait()
		}
		atomic.AddUint32(&p.count, 1)
		p.lock.Unlock()
	}
	return p.pool.Get()
}

func (p *WaitPool) Put(x interface{}) {
	p.pool.Put(x)
	if p.max == 0 {
		return
	}
	atomic.AddUint32(&p.count, ^uint32(0))
	p.cond.Signal()
}

type QueueHandshakeElement struct {
	msgType uint32
	packet  []byte
	buffer  *[MaxMessageSize]byte
}

type Device struct {
	pool struct {
		messageBuffers *WaitPool
	}
	queue struct {
		handshake chan QueueHandshakeElement
	}
	stopping sync.WaitGroup
}

func NewDevice() *Device {
	d := &Device{}
	d.pool.messageBuffers = NewWaitPool(PreallocatedBuffersPerPool, func() interface{} {
		return new([MaxMessageSize]byte)
	})
	d.queue.handshake = make(chan QueueHandshakeElement, 128)
	return d
}

func (device *Device) GetMessageBuffer() *[MaxMessageSize]byte {
	return device.pool.messageBuffers.Get().(*[MaxMessageSize]byte)
}

func (device *Device) PutMessageBuffer(msg *[MaxMessageSize]byte) {
	device.pool.messageBuffers.Put(msg)
}

// ReceiveFunc receives one datagram into b.
type ReceiveFunc func(b []byte) (n int, err error)

func (device *Device) RoutineReceiveIncoming(recv ReceiveFunc) {
	defer device.stopping.Done()

	buffer := device.GetMessageBuffer()

	var (
		err         error
		size        int
		deathSpiral int
	)

	for {
		size, err = recv(buffer[:])

		if err != nil {
			device.PutMessageBuffer(buffer)
			if errors.Is(err, net.ErrClosed) {
				return
			}
			var neterr net.Error
			if errors.As(err, &neterr) && !neterr.Timeout() {
				return
			}
			log.Printf("Failed to receive packet: %v", err)
			if deathSpiral < 10 {
				deathSpiral++
				time.Sleep(time.Second / 3)
				buffer = device.GetMessageBuffer()
				continue
			}
			return
		}
		deathSpiral = 0

		if size < MinMessageSize {
			continue
		}

		packet := buffer[:size]
		msgType := binary.LittleEndian.Uint32(packet[:4])

		okay := false
		switch msgType {
		case MessageInitiationType:
			okay = len(packet) == MessageInitiationSize
		default:
			log.Printf("Received message with unknown type")
		}

		if okay {
			select {
			case device.queue.handshake <- QueueHandshakeElement{
				msgType: msgType,
				buffer:  buffer,
				packet:  packet,
			}:
				buffer = device.GetMessageBuffer()
			default:
			}
		}
	}
}
