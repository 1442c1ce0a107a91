// Source: https://github.com/m3db/m3db/pull/197
// (commit d5750a52f1ca09e966c9d2f7ba95044b538b53f1 in m3db/m3, "Avoid
// returning block byte slices to pool from SegmentReader")
//
// Bug: a dbBlock owns its encoded ts.Segment (Head/Tail byte slices plus the
// HeadPool/TailPool they came from); resetSegment registers the segment's
// Finalize with the block's context so the bytes go back to the pool when
// the block is closed. dbBlock.Stream handed that same segment, pools
// included, to a pooled SegmentReader and registered the reader's Close as a
// finalizer on the caller's context. segmentReader.Close finalizes its
// segment, i.e. puts Head and Tail back into the bytes pool. Every read of
// the block therefore returned the block's immutable, shared byte slices to
// the pool again - once per reader, and once more when the block itself is
// closed - while the block and other readers keep using them.
//
// Fix: Stream resets the reader with a copy of the segment that has only
// Head and Tail and no HeadPool/TailPool, so closing a reader never returns
// the block's slices to the pool.
//
// Check: doubleput (at the RegisterFinalizer of the reader's Close in Stream:
// the reader's Close puts the block's bytes, which the block's own context
// finalizer also puts)
package bug

import "sync"

// BytesPool is a trimmed m3x pool.BytesPool.
type BytesPool interface {
	Get(capacity int) []byte
	Put(buffer []byte)
}

type bytesPool struct {
	ch chan []byte
}

// NewBytesPool creates a bytes pool.
func NewBytesPool(size int) BytesPool {
	return &bytesPool{ch: make(chan []byte, size)}
}

func (p *bytesPool) Get(capacity int) []byte {
	select {
	case b := <-p.ch:
		if cap(b) >= capacity {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, capacity)
}

func (p *bytesPool) Put(buffer []byte) {
	select {
	case p.ch <- buffer:
	default:
	}
}

// Segment represents a binary blob consisting of two byte slices, if the
// pools are set for the two byte slices then when the Segment goes out of
// scope the slices should be returned to their respective pools with Finalize.
type Segment struct {
	Head     []byte
	Tail     []byte
	HeadPool BytesPool
	TailPool BytesPool
}

// Finalize will release resources kept by the segment if pooled.
func (s *Segment) Finalize() {
	if s.HeadPool != nil && s.Head != nil {
		s.HeadPool.Put(s.Head)
	}
	if s.TailPool != nil && s.Tail != nil {
		s.TailPool.Put(s.Tail)
	}
	s.Head = nil
	s.Tail = nil
}

// Finalizer finalizes a resource.
type Finalizer interface {
	Finalize()
}

// FinalizerFn adapts a func to a Finalizer.
type FinalizerFn func()

// Finalize calls fn.
func (fn FinalizerFn) Finalize() { fn() }

// Context collects finalizers that run when it is closed.
type Context interface {
	RegisterFinalizer(f Finalizer)
	DependsOn(blocker Context)
	Close()
}

type ctx struct {
	sync.Mutex
	finalizers []Finalizer
	deps       []Context
}

// NewContext creates a context.
func NewContext() Context { return &ctx{} }

func (c *ctx) RegisterFinalizer(f Finalizer) {
	c.Lock()
	c.finalizers = append(c.finalizers, f)
	c.Unlock()
}

func (c *ctx) DependsOn(blocker Context) {
	c.Lock()
	c.deps = append(c.deps, blocker)
	c.Unlock()
}

func (c *ctx) Close() {
	c.Lock()
	finalizers := c.finalizers
	c.finalizers = nil
	c.deps = nil
	c.Unlock()
	for _, f := range finalizers {
		f.Finalize()
	}
}
