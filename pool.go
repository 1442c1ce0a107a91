package pool

import (
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/pool/internal/pooldebug"
)

// A Pool is a typed set of temporary objects that may be individually saved
// and retrieved. Its purpose is the one of sync.Pool: to cache allocated but
// unused items for later reuse, relieving pressure on the garbage collector.
// Unlike sync.Pool it is typed, stores non-pointer values without boxing,
// resets objects on Put, can be bounded (MaxIdle), can keep objects across GC
// cycles (MinIdle), and counts what it does (Stats).
//
// Any item stored in the Pool may be removed automatically at any time
// without notification. Without MinIdle, an idle object is released after
// the second GC cycle after it was Put, and collected by the third at the
// latest (see "GC" below).
//
// When not to use it: for objects that are cheap to allocate (small structs
// without pointers to further allocations, where a pool round trip costs
// about as much as the allocation it saves: measure with cmd/poolbench or
// pooladvise on your program), or for short-lived objects whose lifetime is
// one function (let escape analysis keep them on the stack). A Pool is no
// free list for objects with a lifetime you must control: it may drop
// anything it holds.
//
// The zero value is an empty pool ready to use: Get returns the zero T and
// Put caches. The exported fields configure the pool and must be set before
// its first use and not changed afterwards.
//
// # Cost
//
// Get and Put pin the goroutine to its P the way sync.Pool does and cost
// about 1.1x what sync.Pool's do (README has the figures), with no
// allocation for any T: values are cached inline, so a Pool[[]byte] or a
// Pool of small structs does not box. (The first Put on each P allocates
// that P's cache; GC trimming, which runs on the runtime's cleanup
// goroutine just after each cycle, allocates a little there.) Each P that
// uses the pool gets a cache of up to 16 values (fewer for values larger
// than 32 bytes, in an array of 16 all the same): pool large value types by
// pointer. A pool of pointers costs about 1 KB at GOMAXPROCS=64 plus about
// 400 bytes for each P that has used it.
// The engine starts no goroutine: GC trimming runs in the runtime's cleanup
// goroutine (runtime.AddCleanup), between GC cycles.
//
// On toolchains newer than the ones the engine has been verified on (Go
// 1.26), and with the build tag poolkit_portable, Get and Put take a
// per-shard lock instead of pinning the P: correct everywhere, but each
// Get and Put pays a lock and an unlock, so a Get+Put round trip takes
// about three times as long as sync.Pool's (62 ns against 21 ns on a 2-core
// Xeon, BenchmarkPoolGetPut; see README.md).
//
// # Bounds
//
// MaxIdle is exact: the pool never holds more idle objects (Stats().Idle
// read at quiescence never exceeds it). Each P holds a small
// share of the unused bound that other Ps cannot use (at most
// (MaxIdle-MinIdle)/4 over all Ps), so a Put may be dropped while the pool
// holds up to that many fewer than MaxIdle; one goroutine can always fill
// at least three quarters of MaxIdle, and MinIdle of it. Threads that exit
// take nothing with them: caches and shares belong to Ps, not threads.
//
// # GC
//
// After each GC cycle the pool ages what it holds. The objects idle in a
// P's cache are set aside after the first cycle: Gets on that P still take
// them, Gets on other Ps only after the next cycle; they are released after
// the second cycle and collected by the third. Those in the shared lists
// are held weakly after the first cycle, so the second one collects them.
// The aging runs shortly after each cycle, not during it,
// so a program that runs cycles back to back (runtime.GC twice in a row)
// may see objects survive one more cycle. MinIdle objects survive any
// number of cycles. When the heap goal reaches 90% of the memory limit
// (GOMEMLIMIT), pools ignore MinIdle and release everything idle at each
// cycle until the pressure ends.
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
	// hand out. If New is nil, Get returns the zero T instead. If New
	// panics, the panic reaches Get's caller; the Get is counted (as a
	// Get and a Miss) and nothing else changes.
	New func() T

	// Reset, if set, is called by Put on x before x is cached (and before
	// Keep), so that Get always hands out clean objects. It must not call
	// back into the Pool. If Reset (or Keep) panics, the panic reaches
	// Put's caller and the pool is left as if that Put had not been made:
	// x is not cached, nothing is counted, debug mode does not record it.
	Reset func(x T)

	// Keep, if set, is called by Put after Reset; when it returns false, x
	// is dropped instead of cached (and counted in Stats.Drops). Use it to
	// refuse objects that grew too large (golang/go#23199), for example
	//
	//	Keep: func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 }
	Keep func(x T) bool

	// MaxIdle bounds the number of idle objects the pool holds, over all
	// Ps and GC cycles: once the pool is quiescent Stats().Idle never
	// exceeds it (while Gets and Puts are in flight, Stats may count an
	// object that is moving between tiers twice). Puts beyond the
	// bound are dropped and counted in Stats.Drops. 0 means no bound
	// beyond GC trimming. Negative values are treated as 0.
	MaxIdle int

	// MinIdle is the number of idle objects kept across GC cycles: objects
	// that GC trimming would release are kept instead while the pool holds
	// fewer than MinIdle that way. 0 means sync.Pool behaviour: everything
	// idle is released. MinIdle is capped at MaxIdle when MaxIdle is set.
	// Negative values are treated as 0.
	MinIdle int

	// st is the pool's engine state, created on first use and replaced by
	// a larger one when GOMAXPROCS grows. Read with load-acquire on every
	// Get and Put.
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
func (p *Pool[T]) Get() T {
	st := p.st.Load()
	if st == nil {
		st = p.init()
	}
	// Fast path: pop from the local block of the caller's P.
	s := st.at(pin()) // st.enter(), inlined
	if s == nil {
		st.exit(nil)
		return p.getSlow(st, false)
	}
	s.gets.inc()
	x, ok := s.local.Load().pop()
	if !ok {
		if x, ok = s.reclaim(); !ok {
			st.exit(s)
			return p.getSlow(st, true)
		}
	}
	if st.credit {
		// Give the object's MaxIdle unit and budget bytes back to the
		// P's credit; the excess it may not keep goes back once unpinned.
		var excess, bexcess int64
		if st.counted {
			excess = s.giveCount(st.chunk)
		}
		if st.bg != nil {
			bexcess = giveCredit(st.bg, s.pid, st.weight)
		}
		st.exit(s)
		if excess|bexcess != 0 {
			st.release(excess, bexcess)
		}
	} else {
		st.exit(s)
	}
	if pooldebug.On.Load() {
		p.debugGet(st, &x, true)
	}
	return x
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
func (p *Pool[T]) Put(x T) {
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
	// Fast path: push onto the local block of the caller's P, paying the
	// object's count and bytes from the P's credit.
	s := st.at(pin()) // st.enter(), inlined
	if s == nil {
		st.exit(nil)
		p.putSlow(st, x)
		return
	}
	b := s.local.Load()
	if !b.room() || st.credit && !st.takeCredits(s) {
		st.exit(s)
		p.putSlow(st, x)
		return
	}
	b.push(x)
	s.puts.inc()
	st.exit(s)
}

// admit runs Put's checks and hooks on x — nil, debug, Reset, race drop,
// Keep — and reports whether x may be cached; if not, the Put is counted as
// a Put and a Drop. If Reset or Keep panics, nothing is counted or recorded.
func (p *Pool[T]) admit(st *state[T], x T) bool {
	if st.nilable && *(*unsafe.Pointer)(unsafe.Pointer(&x)) == nil {
		st.c.dropOnPut()
		return false
	}
	debug := pooldebug.On.Load()
	if debug && !p.debugCheckPut(st, &x) {
		st.c.dropOnPut()
		return false
	}
	if p.Reset != nil {
		p.Reset(x)
	}
	// Keep runs before the race detector's random drop, so that hooks
	// run (and panic) the same with and without -race.
	keep := (p.Keep == nil || p.Keep(x)) && !(raceEnabled && raceDrop())
	if debug {
		p.debugMarkIdle(st, &x, keep)
	}
	if !keep {
		st.c.dropOnPut()
	}
	return keep
}

// Stats is a snapshot of a Pool's counters. Counters are exact once the pool
// is quiescent (no Get or Put in progress and no GC trimming under way):
// then Puts-Drops == Gets-Misses+Evicted+Idle. While the pool is in use they
// may lag by the operations in flight.
type Stats struct {
	Gets    uint64 // calls to Get
	Misses  uint64 // Gets that found the pool empty and called New (or returned the zero T)
	Puts    uint64 // calls to Put, except those whose Reset or Keep panicked
	Drops   uint64 // Puts that did not cache their argument: nil, Keep false, MaxIdle or byte budget reached, race-detector drops
	Evicted uint64 // idle objects released by GC trimming (after their GC cycles, or all at once under memory pressure)
	Idle    int    // objects held now, approximate while the pool is in use
}

// Stats returns the pool's counters. It reads them without stopping Get or
// Put, and costs O(Ps that used the pool).
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
