package pool

import (
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/pool/internal/pooldebug"
	"github.com/poolkit/pool/internal/runtimex"
)

// A Pool is a typed set of temporary objects that may be individually saved
// and retrieved. Its purpose is the one of sync.Pool: to cache allocated but
// unused items for later reuse, relieving pressure on the garbage collector.
// Unlike sync.Pool it is typed, stores non-pointer values without boxing,
// resets objects on Put, can be bounded (MaxIdle), can keep objects across GC
// cycles (MinIdle), and counts what it does (Stats).
//
// Any item stored in the Pool may be removed automatically at any time
// without notification. Without MinIdle, an idle object is released after at
// most two GC cycles, as with sync.Pool.
//
// When not to use it: for objects that are cheap to allocate (small structs
// without pointers to further allocations, where a pool round trip costs
// about as much as the allocation it saves: measure with the tinystruct
// workload of cmd/poolbench on your machine), or for short-lived objects
// whose lifetime is one function (let escape analysis keep them on the
// stack).
// A Pool is no free list for objects with a lifetime you must control: it may
// drop anything it holds. Values of T are cached inline, up to 16 per
// thread in each of two blocks. Values larger than 32 bytes skip the
// per-thread caches and take a lock on every Get and Put: for large value
// types, pool pointers (*T) instead.
//
// Known limitation: the fast path is made of //go:nosplit functions (see
// Get). A program built with optimizations off (-gcflags=all=-N, as debuggers
// do) fails to link, with "nosplit stack over 792 byte limit", if it pools
// values of at most 32 bytes that contain pointers and that the compiler
// copies with a runtime call: arrays of two or more elements, or structs of
// more than four fields. Pool a pointer to such values instead.
//
// The zero value is an empty pool ready to use: Get returns the zero T and
// Put caches. The exported fields configure the pool and must be set before
// its first use and not changed afterwards.
//
// A Pool is safe for concurrent use by multiple goroutines. A Pool must not
// be copied after first use (go vet's copylocks check reports copies).
//
// In the terminology of the Go memory model, a call to Put(x) “synchronizes
// before” a call to Get returning that same value x. Similarly, a call to New
// returning x “synchronizes before” a call to Get returning that same value x.
type Pool[T any] struct {
	noCopy noCopy

	// New returns a new object. Get calls it when the pool has nothing to
	// hand out. If New is nil, Get returns the zero T instead.
	New func() T

	// Reset, if set, is called by Put on x before x is cached (and before
	// Keep), so that Get always hands out clean objects. It must not call
	// back into the Pool.
	Reset func(x T)

	// Keep, if set, is called by Put after Reset; when it returns false, x
	// is dropped instead of cached (and counted in Stats.Drops). Use it to
	// refuse objects that grew too large (golang/go#23199), for example
	//
	//	Keep: func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 }
	Keep func(x T) bool

	// MaxIdle bounds the number of idle objects the pool holds, over all
	// threads. Stats().Idle never exceeds MaxIdle+GOMAXPROCS; Puts beyond
	// the bound are dropped and counted in Stats.Drops. 0 means no bound
	// beyond GC trimming. Negative values are treated as 0.
	//
	// A MaxIdle smaller than twice the number of threads that have used
	// pools (about GOMAXPROCS, plus threads that ran Get or Put after
	// another one took their P during a system call) disables the
	// per-thread caches, so every Get and Put takes a lock.
	MaxIdle int

	// MinIdle is the number of idle objects kept across GC cycles: while the
	// pool holds no more than MinIdle idle objects, GC trimming leaves it
	// alone, and objects trimmed beyond that are kept in a reserve until it
	// holds MinIdle of them. 0 means sync.Pool behaviour: everything idle is
	// released after at most two GC cycles. MinIdle is capped at MaxIdle when
	// MaxIdle is set. Negative values are treated as 0.
	MinIdle int

	// st is the pool's engine state, created on first use and replaced
	// (never mutated in place) when more threads need slots than it has
	// shards. Read with load-acquire on every Get and Put, before their
	// sections start.
	st atomic.Pointer[state[T]]
}

// Get selects an arbitrary object from the Pool, removes it from the Pool,
// and returns it to the caller. If the pool has no object to hand out, Get
// returns New() (the zero T if New is nil); Stats counts that as a miss.
//
// Get may choose to ignore the pool and treat it as empty. Callers must not
// assume any relation between the values passed to Put and those returned by
// Get, beyond what Reset guarantees about their state.
//
// The returned object belongs to the caller until it passes it to Put.
//
// Get is nosplit (and never inlined): for values of at most maxFastSize
// bytes its fast path is a section (see slots.go) that pops from the local
// block of the caller's slot, and every call in it is to a nosplit function.
// Larger values go through getLocked, and Get keeps them in its caller's
// frame, so its own frame stays small for every T.
//
//go:nosplit
//go:noinline
func (p *Pool[T]) Get() (x T) {
	if unsafe.Sizeof(x) > maxFastSize {
		p.getLocked(&x)
		return x
	}
	st := p.st.Load()
	if st == nil {
		st = p.init()
	}
	sectionEnter()
	m := runtimex.M()
	i := slots.first(m)
	if i < 0 {
		i = slots.probe(m)
	}
	if uint(i) >= uint(len(st.shards)) {
		sectionExit()
		return p.getSlow(st, false)
	}
	s := &st.shards[i]
	s.gets.inc()
	if !s.local.Load().pop(&x) && !s.victim.Load().popVictim(&x) {
		sectionExit()
		return p.getSlow(st, true)
	}
	var excess int64
	if st.bg != nil {
		excess = giveCredit(st.bg, i, st.weight)
	}
	sectionExit()
	if excess > 0 {
		st.bg.Release(excess)
	}
	if pooldebug.On.Load() {
		p.debugGet(st, &x, true)
	}
	return x
}

// getLocked is Get for values larger than maxFastSize.
//
//go:noinline
func (p *Pool[T]) getLocked(x *T) {
	*x = p.getSlow(p.state(), false)
}

// Put adds x to the pool. It first calls Reset(x) and then Keep(x) if they
// are set, and caches x unless Keep returned false, the pool is at MaxIdle,
// or (under the race detector, at random in one Put of four) it decides to
// drop it. Put ignores nil values of pointer-shaped and slice types (nil
// pointers, maps, channels, funcs, interfaces and nil slices); they count as
// a Put and a Drop.
//
// After Put(x) the caller must not use x, or any memory x refers to, again:
// it may already have been handed to another goroutine.
//
// Put is nosplit like Get: its section starts after the calls to Reset and
// Keep.
//
//go:nosplit
//go:noinline
func (p *Pool[T]) Put(x T) {
	if unsafe.Sizeof(x) > maxFastSize {
		p.putLocked(&x)
		return
	}
	st := p.st.Load()
	if st == nil {
		st = p.init()
	}
	if p.Keep != nil || raceEnabled || pooldebug.On.Load() ||
		st.nilable && *(*unsafe.Pointer)(unsafe.Pointer(&x)) == nil {
		if !p.admit(st, x) {
			return
		}
	} else if p.Reset != nil {
		p.Reset(x)
	}
	sectionEnter()
	m := runtimex.M()
	i := slots.first(m)
	if i < 0 {
		i = slots.probe(m)
	}
	if uint(i) >= uint(len(st.shards)) {
		sectionExit()
		p.putSlow(st, x)
		return
	}
	s := &st.shards[i]
	s.puts.inc()
	if st.bg != nil && !takeCredit(st.bg, i, st.weight) {
		sectionExit()
		p.putRefill(st, x)
		return
	}
	if s.local.Load().push(&x) {
		sectionExit()
		return
	}
	sectionExit()
	p.putFull(st, x, 0)
}

// putLocked is Put for values larger than maxFastSize.
//
//go:noinline
func (p *Pool[T]) putLocked(x *T) {
	st := p.state()
	if p.admit(st, *x) {
		p.putSlow(st, *x)
	}
}

// admit runs Put's checks and hooks on x — nil, debug, Reset, race drop,
// Keep — and reports whether x may be cached; if not, the Put is counted.
func (p *Pool[T]) admit(st *state[T], x T) bool {
	if st.nilable && *(*unsafe.Pointer)(unsafe.Pointer(&x)) == nil {
		st.c.dropOnPut()
		return false
	}
	if pooldebug.On.Load() && !p.debugPut(st, &x) {
		st.c.dropOnPut()
		return false
	}
	if p.Reset != nil {
		p.Reset(x)
	}
	if raceEnabled && raceDrop() || p.Keep != nil && !p.Keep(x) {
		st.c.dropOnPut()
		if pooldebug.On.Load() {
			st.debugForget([]T{x})
		}
		return false
	}
	return true
}

// state returns p's engine state, creating it on first use.
func (p *Pool[T]) state() *state[T] {
	if st := p.st.Load(); st != nil {
		return st
	}
	return p.init()
}

// Stats is a snapshot of a Pool's counters. Counters are exact once the pool
// is quiescent (no Get or Put in progress and no GC trimming under way);
// while it is in use they may lag by the operations in flight.
type Stats struct {
	Gets    uint64 // calls to Get
	Misses  uint64 // Gets that found the pool empty and called New
	Puts    uint64 // calls to Put
	Drops   uint64 // Puts that did not cache their argument: nil, Keep false, over MaxIdle, race-detector drops
	Evicted uint64 // idle objects released by GC trimming, or when new threads came to use the pool
	Idle    int    // objects held now, approximate while the pool is in use
}

// Stats returns the pool's counters. It reads them without stopping Get or
// Put and without taking their locks, and costs O(threads that used pools).
func (p *Pool[T]) Stats() Stats {
	st := p.st.Load()
	if st == nil {
		return Stats{}
	}
	return st.stats()
}

// noCopy may be embedded into structs which must not be copied after first
// use; go vet's copylocks check recognizes its Lock and Unlock methods.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
