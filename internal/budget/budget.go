// Package budget bounds the bytes a set of pools holds idle, without a
// shared atomic on the fast path.
package budget

import (
	"runtime"
	"sync/atomic"

	"github.com/poolkit/pool/internal/runtimex"
)

// Budget counts idle bytes against a maximum.
//
// The bytes of the budget are in one of three places: reserved by a cached
// object (idle), held as credit by a P (Local[P id].N), or free. Invariant:
//
//	idle + Σ Local[p].N + free == max, with every term >= 0
//
// so idle never exceeds max. The pools' fast paths move bytes only between
// idle and their P's credit (no atomic, while pinned to the P); everything
// else goes through free (Refill, Reserve, Release). A P keeps at most
// 2*chunk of credit, and credit held by other Ps cannot be used: a
// reservation may fail while idle bytes are up to 2*chunk*GOMAXPROCS below
// max, at most max/4 at the GOMAXPROCS of Init. Credit belongs to Ps, not
// threads, so threads that exit take none with them.
//
// Memory pressure (ShrinkUnderPressure): while pressure reports true, a
// refill leaves at least floor = max - max/PressureDivisor in free and takes
// no chunk beyond its need. Refills are the only way idle + Σ credit grows,
// so once the trimmer has released the idle objects (their bytes go to
// free), idle stays under max/PressureDivisor plus the credit the Ps hold.
// The fast paths never look at pressure.
type Budget struct {
	max int64
	// Chunk is the credit a P takes from free beyond its need on a
	// refill; a P keeps at most 2*Chunk and returns the excess to free.
	// Set by Init, read-only afterwards.
	Chunk    int64
	pressure func() bool // nil, or reports memory pressure; called on refills only
	floor    int64       // free kept back from refills under pressure
	_        [32]byte    // the fields above are read-only; keep them off free's cache line
	free     atomic.Int64
	_        [56]byte // free is written by every slow path

	// Local holds the Ps' credit, indexed by P id. The pools' fast paths
	// move bytes between idle and their P's credit themselves (the
	// credit code must be inlined into them, so it lives in package pool,
	// see its takeCredit and giveCredit); Local[i].N never exceeds
	// 2*Chunk once the fast path is done.
	Local [runtimex.MaxProcs]Credit
}

// Credit is one P's share of the budget.
type Credit struct {
	RL runtimex.RaceLock // orders the P's accesses for the race detector
	N  int64             // bytes the P may reserve; accessed only by a goroutine pinned to the P
	_  [56]byte          // one cache line per P
}

// Init sets the maximum; it must be called before any other method.
func (b *Budget) Init(max int64) {
	procs := runtime.GOMAXPROCS(0)
	b.max = max
	b.Chunk = min(max/int64(8*procs), 1<<20)
	b.free.Store(max)
}

// PressureDivisor is how much the budget shrinks under memory pressure:
// refills stop once idle + Σ credit reaches max/PressureDivisor.
const PressureDivisor = 8

// ShrinkUnderPressure makes the budget shrink to max/PressureDivisor (plus
// the Ps' credit) while pressure reports true, and return to max when it
// reports false again. pressure is called only by refills from free, never
// on the fast path; it must not block. ShrinkUnderPressure must be called
// after Init and before any other method.
func (b *Budget) ShrinkUnderPressure(pressure func() bool) {
	b.pressure = pressure
	b.floor = b.max - b.max/PressureDivisor
}

// Refill takes from free the n bytes an object about to be cached needs,
// plus up to Chunk more for the caller to add to its P's credit, and
// returns the amount taken: 0 if free cannot spare n.
func (b *Budget) Refill(n int64) int64 {
	return b.take(n, n+b.Chunk)
}

// Reserve takes n bytes from free for an object about to be cached and
// reports true, or reports false if the budget cannot spare them.
func (b *Budget) Reserve(n int64) bool {
	return b.take(n, n) == n
}

// take moves as much as it can, up to hi bytes, out of free and returns the
// amount, or moves nothing and returns 0 if free holds less than lo. Under
// memory pressure it takes at most lo and leaves floor in free (slow path).
func (b *Budget) take(lo, hi int64) int64 {
	var floor int64
	if b.pressure != nil && b.pressure() {
		floor, hi = b.floor, lo
	}
	for {
		free := b.free.Load()
		avail := free - floor
		if avail < lo {
			return 0
		}
		got := min(avail, hi)
		if b.free.CompareAndSwap(free, free-got) {
			return got
		}
	}
}

// Release gives n bytes back to free (reserved bytes of an object that was
// taken or released, or a P's excess credit).
func (b *Budget) Release(n int64) {
	if n != 0 {
		b.free.Add(n)
	}
}

// Idle returns the bytes reserved by cached objects: exact when the pools
// are quiescent, approximate while they are in use (it reads the credits and
// free at slightly different instants).
func (b *Budget) Idle() int64 {
	idle := b.max - b.free.Load()
	for i := range b.Local {
		c := &b.Local[i]
		c.RL.LockUnpinned()
		idle -= c.N
		c.RL.UnlockUnpinned()
	}
	return idle
}

// Free returns the budget that no P holds as credit.
func (b *Budget) Free() int64 { return b.free.Load() }

// Max returns the maximum set by Init.
func (b *Budget) Max() int64 { return b.max }
