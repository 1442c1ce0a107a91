package benchmarks

import (
	"io"
	"sync"
	"sync/atomic"
)

// A source hands out objects of type T and takes them back: the part of a
// strategy that a workload's operation calls. Operations are written once
// against this interface, so every strategy pays the same indirect call
// per Get and per Put; the one workload whose operation is
// small enough for that to matter (tinystruct) is written out per strategy.
type source[T any] interface {
	Get() T
	Put(x T) // x must not be used afterwards
}

// A kit describes the objects of a workload: how to make one, how to make
// a used one like new, and how many idle ones a bounded free list keeps.
type kit[T any] struct {
	new     func() T
	reset   func(T) // nil: nothing to reset
	maxIdle int     // bound of the chan and mutex free lists
}

// An opMaker builds a workload's operation on top of a source. It may
// return a close function for resources other than memory.
type opMaker[T any] func(src source[T], out io.Writer) (op func(i int), close func())

// strategies returns the strategies every object workload has: alloc,
// syncpool, pool and the chan and mutex free lists, plus extra (strategies
// specific to the workload, or pool variants).
func (k kit[T]) strategies(mk opMaker[T], extra ...Strategy) []Strategy {
	ss := []Strategy{
		{Name: "alloc", Doc: "a new object for every use, left to the garbage collector",
			New: func(out io.Writer) Instance {
				op, cl := mk(allocSource[T]{k.new}, out)
				return Instance{Op: op, Close: cl, NoReuse: true}
			}},
		{Name: "syncpool", Doc: "sync.Pool with a type assertion on Get and Reset before Put",
			GivesUp: givesUpSyncPool,
			New: func(out io.Writer) Instance {
				s := newSyncSource(k)
				op, cl := mk(s, out)
				return Instance{Op: op, Close: cl, Misses: s.misses.Load}
			}},
		{Name: "pool", Doc: "pool.Pool[T] with New and Reset",
			New: func(out io.Writer) Instance {
				s := newPoolSource(k, 0)
				op, cl := mk(s, out)
				return Instance{Op: op, Close: cl, Misses: s.Misses}
			}},
		{Name: "chan", Doc: "a buffered channel used as a bounded free list",
			GivesUp: givesUpFreeList,
			New: func(out io.Writer) Instance {
				s := &chanSource[T]{kit: k, ch: make(chan T, k.maxIdle)}
				op, cl := mk(s, out)
				return Instance{Op: op, Close: cl, Misses: s.misses.Load}
			}},
		{Name: "mutex", Doc: "a slice guarded by a sync.Mutex used as a bounded free list",
			GivesUp: givesUpFreeList + "; one lock shared by every goroutine",
			New: func(out io.Writer) Instance {
				s := &mutexSource[T]{kit: k}
				op, cl := mk(s, out)
				return Instance{Op: op, Close: cl, Misses: s.misses.Load}
			}},
	}
	return append(ss, extra...)
}

// What the strategies not built on this project's pools give up compared
// with pool.Pool, quoted by the verdicts that recommend them.
const (
	givesUpSyncPool       = "no type safety (an assertion per Get), boxing of non-pointer values, no bound on idle objects, no stats"
	givesUpByteBufferPool = "no stats, no bound on idle buffers (its calibration drops only buffers far above the usual size); sync.Pool underneath"
	givesUpFreeList       = "no stats, and idle objects are never released to the GC: the list keeps its high-water mark for good (no GC trimming, no MinIdle/MaxIdle split)"
)

// allocSource allocates on every Get and forgets on Put.
type allocSource[T any] struct{ new func() T }

func (s allocSource[T]) Get() T { return s.new() }
func (s allocSource[T]) Put(T)  {}

// syncSource is the sync.Pool idiom: New counts misses, Put resets first.
// Storing a T that is not pointer-shaped boxes it: one allocation per Put
// (staticcheck SA6002), which is what users of sync.Pool pay.
type syncSource[T any] struct {
	p      sync.Pool
	reset  func(T)
	misses atomic.Uint64
}

func newSyncSource[T any](k kit[T]) *syncSource[T] {
	s := &syncSource[T]{reset: k.reset}
	s.p.New = func() any { s.misses.Add(1); return k.new() }
	return s
}

func (s *syncSource[T]) Get() T { return s.p.Get().(T) }
func (s *syncSource[T]) Put(x T) {
	if s.reset != nil {
		s.reset(x)
	}
	s.p.Put(x)
}

// chanSource is a free list in a buffered channel: it survives GC cycles
// and holds at most cap(ch) idle objects.
type chanSource[T any] struct {
	kit    kit[T]
	ch     chan T
	misses atomic.Uint64
}

func (s *chanSource[T]) Get() T {
	select {
	case x := <-s.ch:
		return x
	default:
		s.misses.Add(1)
		return s.kit.new()
	}
}

func (s *chanSource[T]) Put(x T) {
	if s.kit.reset != nil {
		s.kit.reset(x)
	}
	select {
	case s.ch <- x:
	default:
	}
}

// mutexSource is a free list in a slice under a mutex: it survives GC
// cycles and holds at most kit.maxIdle idle objects.
type mutexSource[T any] struct {
	kit    kit[T]
	mu     sync.Mutex
	idle   []T
	misses atomic.Uint64
}

func (s *mutexSource[T]) Get() T {
	s.mu.Lock()
	if n := len(s.idle) - 1; n >= 0 {
		x := s.idle[n]
		var zero T
		s.idle[n] = zero
		s.idle = s.idle[:n]
		s.mu.Unlock()
		return x
	}
	s.mu.Unlock()
	s.misses.Add(1)
	return s.kit.new()
}

func (s *mutexSource[T]) Put(x T) {
	if s.kit.reset != nil {
		s.kit.reset(x)
	}
	s.mu.Lock()
	if len(s.idle) < s.kit.maxIdle {
		s.idle = append(s.idle, x)
	}
	s.mu.Unlock()
}
