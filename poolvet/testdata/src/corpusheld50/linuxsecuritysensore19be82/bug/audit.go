// Source: https://github.com/SUSE/linux-security-sensor/commit/e19be820d408b5c226b6e07771385c661ddde177
// (PR https://github.com/SUSE/linux-security-sensor/pull/109, "audit: fix
// auditBuf allocation and go vet warnings").
//
// (Outside the writer's WebAssembly/Go-tooling domain: the domain ran dry.)
//
// Bug: the audit service receives netlink messages into *auditBuf objects
// taken from a sync.Pool. Each auditBuf carries a utils.Refcount that starts
// at 1 (NewRefcount); consumers take references with Get and drop them with
// Put, and the Put that drops the last reference (count reaches 0) returns
// the buffer to its pool after clearing size. The refcount itself was left
// at 0, so the next user that takes the buffer out of the pool and calls
// buf.Put() (or buf.Get()) hits "Bad refcount, can't Put() free object".
// The commit message: "trying to reuse buffers from the pool would cause a
// panic because the refcount was zero". Before the fix the pool and the
// Refcount were also copied by value (go vet copylocks), which hid the reuse;
// this package holds both by pointer, as the fix does, so that it passes vet
// and shows the state the commit message describes (pointers, no Reset).
//
// Fix: Refcount gets a Reset method that stores 1, auditBuf.Put calls
// self.refcount.Reset() before self.pool.Put(self); the pool and the refcount
// are held by pointer, and the error path of acceptEvents calls buf.Put()
// instead of putting the buffer into the pool directly.
//
// Check: noreset (at auditBuf.Put's pool.Put: the buffer goes back to the pool
// with the refcount of its last user at 0, which the next user sees)
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

type Refcount struct {
	count atomic.Int32
}

func NewRefcount() *Refcount {
	ref := &Refcount{}
	ref.count.Store(1)

	return ref
}

func (self *Refcount) Get() {
	for {
		current := self.count.Load()
		if self.count.Load() == 0 {
			panic("Bad refcount, can't Get() free object")
		}
		if self.count.CompareAndSwap(current, current+1) {
			return
		}
	}
}

// Returns true if the last reference was dropped
func (self *Refcount) Put() bool {
	if self.count.Load() <= 0 {
		panic("Bad refcount, can't Put() free object")
	}
	if self.count.Add(-1) == 0 {
		return true
	}
	return false
}

type auditBuf struct {
	data     []byte
	size     int
	refcount *Refcount
	pool     *sync.Pool
}

func newAuditBuf(bufSize int, pool *sync.Pool) *auditBuf {
	return &auditBuf{
		data:     make([]byte, bufSize),
		refcount: NewRefcount(),
		pool:     pool,
	}
}

func (self *auditBuf) Data() []byte {
	return self.data[:self.size]
}

func (self *auditBuf) Get() {
	self.refcount.Get()
}

func (self *auditBuf) Put() {
	if self.refcount.Put() {
		self.size = 0
		self.pool.Put(self) // want `noreset`
	}
}

var errRetryNeeded = errors.New("retry needed")
var errAgain = errors.New("resource temporarily unavailable")

type auditListener interface {
	Receive(buf *auditBuf) error
}

type messageQueue interface {
	Send(buf *auditBuf)
}

type auditService struct {
	listener   auditListener
	rawBufPool *sync.Pool
}

func newAuditService(listener auditListener, bufSize int) *auditService {
	rawBufPool := &sync.Pool{}

	rawBufPool.New = func() any {
		return newAuditBuf(bufSize, rawBufPool)
	}

	return &auditService{
		rawBufPool: rawBufPool,
		listener:   listener,
	}
}

func (self *auditService) acceptEvents(queue messageQueue) error {
	for {
		buf := self.rawBufPool.Get().(*auditBuf)
		err := self.listener.Receive(buf)
		if err != nil {
			self.rawBufPool.Put(buf)
			if errors.Is(err, errRetryNeeded) {
				continue
			}
			if errors.Is(err, errAgain) {
				break
			}
			return err
		}

		// Send will take its own reference if needed
		queue.Send(buf)
		buf.Put()
	}
	return nil
}
