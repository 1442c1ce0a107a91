// Source: https://github.com/fyne-io/fyne/commit/6369f2a169ef225a428e32e5041fccc0df08e73d
// ("Correct done pool usage"), internal/driver/mobile/canvas_test.go, with
// internal/async/pool.go, internal/driver/common/window.go and
// internal/driver/mobile/driver.go as they were at the parent commit.
//
// Bug: fyne shares one generic pool of "done" channels (common.DonePool, an
// async.Pool[chan struct{}] wrapping sync.Pool) between the drivers. The
// pool's contract is that a channel goes back open and empty: users signal
// completion with `done <- struct{}{}` and receive once. The mobile driver's
// waitAndCheck helper took a channel from DonePool, closed it from the
// callback run on the driver goroutine, and its deferred Put returned the
// closed channel to the shared pool. The next CallFromGoroutine (or any other
// DonePool user) that got it either fell through `<-done` immediately or
// panicked with "send on closed channel".
// Fix: signal with a send instead of close, and Put the channel from the
// goroutine once the callback has completed.
//
// Check: noreset (at the deferred Put in waitAndCheck: the channel goes back
// to the shared pool closed, a state the next user of DonePool sees)
package fixed

import (
	"sync"
	"time"
)

// Pool is the generic version of sync.Pool.
type Pool[T any] struct {
	pool sync.Pool

	// New specifies a function to generate
	// a value when Get would otherwise return the zero value of T.
	New func() T
}

// Get selects an arbitrary item from the Pool, removes it from the Pool,
// and returns it to the caller.
func (p *Pool[T]) Get() T {
	x, ok := p.pool.Get().(T)
	if !ok && p.New != nil {
		return p.New()
	}

	return x
}

// Put adds x to the pool.
func (p *Pool[T]) Put(x T) {
	p.pool.Put(x)
}

// DonePool is shared by the drivers (common.DonePool).
var DonePool = Pool[chan struct{}]{
	New: func() chan struct{} {
		return make(chan struct{})
	},
}

type driver struct {
	queuedFuncs chan func()
}

var d = &driver{queuedFuncs: make(chan func(), 1024)}

// CallFromGoroutine runs fn on the driver goroutine and waits for it.
func (d *driver) CallFromGoroutine(fn func()) {
	done := DonePool.Get()
	defer DonePool.Put(done)

	d.queuedFuncs <- func() {
		fn()
		done <- struct{}{}
	}

	<-done
}

// Run is the (test) driver loop.
func (d *driver) Run() {
	for fn := range d.queuedFuncs {
		fn()
	}
}

func waitAndCheck(msWait time.Duration, fn func()) {
	waitForCheck := DonePool.Get()

	go func() {
		defer DonePool.Put(waitForCheck)

		time.Sleep(msWait * time.Millisecond)
		d.CallFromGoroutine(func() {
			fn()

			waitForCheck <- struct{}{}
		})
	}()
	<-waitForCheck
}
