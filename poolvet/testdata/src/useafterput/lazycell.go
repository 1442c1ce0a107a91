package useafterput

import (
	"sync"
	"sync/atomic"
)

// A callback that takes a shared object from the pool into a variable of
// its enclosing function when that variable is nil, and puts it back
// before it returns: the next run finds the variable set and uses the
// object after its Put (gvisor bb1ae81).

type lcPacket struct {
	refs     int64
	data     []byte
	preserve bool
}

var lcPacketPool = sync.Pool{New: func() any { return new(lcPacket) }}

func newLCPacket(d []byte) *lcPacket {
	p := lcPacketPool.Get().(*lcPacket)
	p.data = d
	atomic.StoreInt64(&p.refs, 1)
	return p
}

func (p *lcPacket) decRef() {
	if atomic.AddInt64(&p.refs, -1) == 0 && !p.preserve {
		p.data = nil
		lcPacketPool.Put(p)
	}
}

func (p *lcPacket) clone() *lcPacket { return newLCPacket(p.data) }

func lcEachEndpoint(n int, f func(int)) {
	for i := 0; i < n; i++ {
		f(i)
	}
}

func lcDeliver(int, *lcPacket) {}

func lazyDeferredRelease(n int, d []byte) {
	var shared *lcPacket
	lcEachEndpoint(n, func(ep int) {
		if shared == nil {
			shared = newLCPacket(d)
			defer shared.decRef() // want `shared goes back to the pool here, but the captured variable keeps it`
		}
		c := shared.clone()
		defer c.decRef()
		lcDeliver(ep, c)
	})
}

func lazyExplicitPut(n int, d []byte) {
	var shared *lcPacket
	lcEachEndpoint(n, func(ep int) {
		if shared == nil {
			shared = lcPacketPool.Get().(*lcPacket)
			shared.data = d
		}
		lcDeliver(ep, shared)
		lcPacketPool.Put(shared) // want `shared goes back to the pool here, but the captured variable keeps it`
	})
}

// The fix: the enclosing function puts it once, after the last run.
func lazyReleasedAfter(n int, d []byte) {
	var shared *lcPacket
	defer func() {
		if shared != nil {
			shared.decRef()
		}
	}()
	lcEachEndpoint(n, func(ep int) {
		if shared == nil {
			shared = newLCPacket(d)
		}
		c := shared.clone()
		defer c.decRef()
		lcDeliver(ep, c)
	})
}

// Cleared after the Put: the next run takes a new one.
func lazyCleared(n int, d []byte) {
	var shared *lcPacket
	lcEachEndpoint(n, func(ep int) {
		if shared == nil {
			shared = newLCPacket(d)
		}
		lcDeliver(ep, shared)
		shared.decRef()
		shared = nil
	})
}

// Run once: nothing sees the variable again.
func lazyOnce(d []byte) {
	var shared *lcPacket
	run := func() {
		if shared == nil {
			shared = newLCPacket(d)
			defer shared.decRef()
		}
		lcDeliver(0, shared)
	}
	run()
}
