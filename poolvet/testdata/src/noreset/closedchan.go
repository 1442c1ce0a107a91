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

// A pooled queue channel put back when its worker stops, with what was
// sent after the worker's last receive still in it: the next queue that
// gets the channel runs the previous owner's jobs (daeuniverse/dae
// 2cf697d).
type queuedJob func()

var queuedJobQueues = sync.Pool{New: func() any { return make(chan queuedJob, 64) }}

func runQueue(stop <-chan struct{}, jobs []queuedJob) {
	q := queuedJobQueues.Get().(chan queuedJob)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case j := <-q:
				j()
			}
		}
	}()
	for _, j := range jobs {
		q <- j
	}
	<-done
	queuedJobQueues.Put(q) // want `q goes back to the pool without being drained, and nothing in the package ever drains a chan queuedJob`
}

// The fix: the worker empties the queue before it stops.
type queuedTask func()

var taskQueues = sync.Pool{New: func() any { return make(chan queuedTask, 64) }}

func runTasks(stop <-chan struct{}, tasks []queuedTask) {
	q := taskQueues.Get().(chan queuedTask)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				for {
					select {
					case <-q:
					default:
						return
					}
				}
			case t := <-q:
				t()
			}
		}
	}()
	for _, t := range tasks {
		q <- t
	}
	<-done
	taskQueues.Put(q)
}

// A one-result channel is not a queue: its single value is received
// before the Put.
var resultChans = sync.Pool{New: func() any { return make(chan error, 1) }}

func runOne(f func() error) error {
	ch := resultChans.Get().(chan error)
	go func() { ch <- f() }()
	err := <-ch
	resultChans.Put(ch)
	return err
}
