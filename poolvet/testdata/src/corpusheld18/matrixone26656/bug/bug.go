// Package bug reproduces the shape of matrixorigin/matrixone#26656
// (https://github.com/matrixorigin/matrixone/pull/26656, fixes
// https://github.com/matrixorigin/matrixone/issues/26645, commit
// 7f95b853ece8eaf0393b1d00a6bd9e69287a6bc3). The MORPC server write loop
// completes a response's future early when it times out (messageSent drops
// the write loop's reference, and the last reference puts the future back
// into the server's sync.Pool). When flushing the rest of the batch then
// fails, the error path walked the whole original batch and completed
// every response again, so a future already returned to the pool (and whose
// "waiting" guard its next user had cleared in init) was completed and
// released a second time.
//
// Check: doubleput (a release guarded by a flag that init clears on reuse,
// reached twice for one future: once in the batch loop, again in the
// flush-error loop over the same slice). Reported at the second
// messageSent, in the flush-error loop. The filter test that reads f.send
// on the line before is a use of the same future; per the docs, uses after
// such a guarded release are not reported, so it carries no want.
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

type message struct {
	id       uint64
	payload  []byte
	internal bool
	expired  bool
}

type Future struct {
	send     message
	writtenC chan error
	waiting  atomic.Bool
	mu       struct {
		sync.Mutex
		closed bool
		ref    int
	}
}

var futurePool = sync.Pool{New: func() any {
	return &Future{writtenC: make(chan error, 1)}
}}

func acquireFuture(send message) *Future {
	f := futurePool.Get().(*Future)
	f.init(send)
	return f
}

func (f *Future) init(send message) {
	f.waiting.Store(false)
	f.send = send
	f.mu.Lock()
	f.mu.closed = false
	f.mu.ref = 2 // the caller waiting on it and the write loop
	f.mu.Unlock()
}

func (f *Future) reset() {
	select {
	case <-f.writtenC:
	default:
	}
	f.send = message{}
}

func releaseFuture(f *Future) {
	f.reset()
	futurePool.Put(f)
}

// Close is called by the requester once it gave up on, or got, the response.
func (f *Future) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.mu.closed {
		return
	}
	f.mu.closed = true
	f.mu.ref--
	f.maybeReleaseLocked()
}

func (f *Future) maybeReleaseLocked() {
	if f.mu.closed && f.mu.ref == 0 {
		releaseFuture(f)
	}
}

func (f *Future) unRef() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mu.ref--
	f.maybeReleaseLocked()
}

// messageSent reports the write result to the waiter and drops the write
// loop's reference.
func (f *Future) messageSent(err error) {
	if f.waiting.CompareAndSwap(false, true) {
		f.writtenC <- err
		f.unRef()
	}
}

type conn struct {
	out      []byte
	failNext bool
}

func (c *conn) Write(m message) error {
	c.out = append(c.out, m.payload...)
	return nil
}

func (c *conn) Flush() error {
	c.out = c.out[:0]
	if c.failNext {
		return errors.New("flush failed")
	}
	return nil
}

var (
	errSkipped = errors.New("message skipped")
	errTimeout = errors.New("message timed out")
)

type server struct {
	filter func(message) bool
}

func (s *server) writeBatch(c *conn, responses []*Future) {
	var written []*Future
	for _, f := range responses {
		if !s.filter(f.send) {
			f.messageSent(errSkipped)
			continue
		}
		if f.send.expired {
			f.messageSent(errTimeout)
			continue
		}
		if err := c.Write(f.send); err != nil {
			f.messageSent(err)
			for _, w := range written {
				w.messageSent(err)
			}
			return
		}
		written = append(written, f)
	}
	if len(written) > 0 {
		if err := c.Flush(); err != nil {
			for _, f := range responses {
				if s.filter(f.send) {
					f.messageSent(err) // want `doubleput`
				}
			}
			return
		}
	}
	for _, f := range written {
		f.messageSent(nil)
	}
}
