// Package fixed is the fixed twin of WireGuard/wireguard-go commit d2fd0c0
// (https://github.com/WireGuard/wireguard-go/commit/d2fd0c0cc07029f879f6611d3b52e4c33bd78b0b).
// The project's fix: take a fresh buffer from the pool before retrying, so
// the retry never reads into, or puts back, the buffer already returned.
package fixed

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

const (
	MaxMessageSize             = 1 << 16
	MinMessageSize             = 32
	PreallocatedBuffersPerPool = 4096
)

// WaitPool is a sync.Pool that can bound the number of objects in use.
type WaitPool struct {
	pool  sync.Pool
	cond  sync.Cond
	lock  sync.Mutex
	count uint32
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
		for atomic.LoadUint32(&p.count) >= p.max {
			p.cond.Wait()
		}
		atomic.AddUint32(&p.count, 1)
		p.lock.Unlock()
	}
	return p.pool.Get()
}

func (p *WaitPool) Put(x any) {
	p.pool.Put(x)
	if p.max == 0 {
		return
	}
	atomic.AddUint32(&p.count, ^uint32(0))
	p.cond.Signal()
}

// ReceiveFunc reads one datagram into b.
type ReceiveFunc func(b []byte) (int, error)

type Device struct {
	messageBuffers *WaitPool
	decryption     chan *[MaxMessageSize]byte
	errorf         func(format string, args ...any)
}

func NewDevice() *Device {
	return &Device{
		messageBuffers: NewWaitPool(PreallocatedBuffersPerPool, func() any {
			return new([MaxMessageSize]byte)
		}),
		decryption: make(chan *[MaxMessageSize]byte, 128),
		errorf:     func(string, ...any) {},
	}
}

func (device *Device) GetMessageBuffer() *[MaxMessageSize]byte {
	return device.messageBuffers.Get().(*[MaxMessageSize]byte)
}

func (device *Device) PutMessageBuffer(msg *[MaxMessageSize]byte) {
	device.messageBuffers.Put(msg)
}

// RoutineReceiveIncoming receives datagrams until the connection is closed.
func (device *Device) RoutineReceiveIncoming(recv ReceiveFunc) {
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
			device.errorf("Failed to receive packet: %v", err)
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

		device.decryption <- buffer
		buffer = device.GetMessageBuffer()
	}
}
