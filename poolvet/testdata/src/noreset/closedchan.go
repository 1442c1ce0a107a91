package noreset

import "sync"

// A pool of done channels whose users signal with a send: a channel closed
// by one user goes back closed, and the next user's receive returns at once
// or its send panics (fyne-io/fyne 6369f2a).

var doneChans = sync.Pool{New: func() any { return make(chan struct{}) }}

type chanPool[T any] struct{ p sync.Pool }

func (c *chanPool[T]) Get() T { // want Get:`pool:get`
	x, _ := c.p.Get().(T)
	return x
}

func (c *chanPool[T]) Put(x T) { c.p.Put(x) } // want Put:`pool:put\(1\)`

var sharedDone = chanPool[chan struct{}]{}

func runOnLoop(f func()) { go f() }

func waitClosed() {
	done := doneChans.Get().(chan struct{})
	go func() { close(done) }()
	<-done
	doneChans.Put(done) // want `done goes back to the pool closed \(closed at line 26\)`
}

func waitNested(f func()) {
	done := sharedDone.Get()
	defer sharedDone.Put(done) // want `done goes back to the pool closed`
	go func() {
		runOnLoop(func() {
			f()
			close(done)
		})
	}()
	<-done
}

// The fix: signal with a send, and the channel stays usable.
func waitSent(f func()) {
	done := sharedDone.Get()
	defer sharedDone.Put(done)
	runOnLoop(func() {
		f()
		done <- struct{}{}
	})
	<-done
}
