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
// object (idle), held as credit by a P (local[pid].n), or free. Invariant:
//
//	idle + Σ local[pid].n + free == max, with every term >= 0
//
// so idle never exceeds max. A reservation takes from its P's credit and,
// when that runs short, moves budget from free to the credit (up to chunk
// more than it needs); a release gives bytes back to its P's credit and
// returns the excess above 2*chunk to free. Credit held by other Ps cannot
// be used: a reservation may fail while idle bytes are up to
// 2*chunk*GOMAXPROCS (at most max/4) below max.
//
// Memory pressure (ShrinkUnderPressure): while pressure reports true, a
// refill leaves at least floor = max - max/PressureDivisor in free and takes
// no chunk beyond its need. Refills are the only way idle + Σ credit grows,
// so once the trimmer has released the idle objects (their bytes go to the
// releasing P's credit, capped at 2*chunk), idle stays under
// max/PressureDivisor plus the credit the Ps hold (2*chunk per P, at most
// max/4 in total). The fast paths never look at pressure.
type Budget struct {
	max      int64
	chunk    int64       // credit a P takes beyond its need; it keeps at most 2*chunk
	local    []credit    // indexed by P id, sized by Init; Ps beyond it use free directly
	pressure func() bool // nil, or reports memory pressure; called on refills only
	floor    int64       // free kept back from refills under pressure
	_        [8]byte     // the fields above are read-only; keep them off free's cache line
	free     atomic.Int64
	_        [56]byte // free is written by every slow path
}

// credit is one P's share of the budget.
type credit struct {
	rl runtimex.RaceLock // orders the P's accesses for the race detector
	n  int64             // bytes the P may reserve; accessed only while pinned to the P
	_  [56]byte          // one cache line per P
}

// Init sets the maximum; it must be called before any other method.
func (b *Budget) Init(max int64) {
	procs := runtime.GOMAXPROCS(0)
	b.max = max
	b.chunk = min(max/int64(8*procs), 1<<20)
	b.local = make([]credit, procs)
	b.free.Store(max)
}

// PressureDivisor is how much the budget shrinks under memory pressure:
// refills stop once idle + Σ credit reaches max/PressureDivisor.
const PressureDivisor = 8

// ShrinkUnderPressure makes the budget shrink to max/PressureDivisor (plus
// the Ps' credit) while pressure reports true, and return to max when it
// reports false again. pressure is called only when a P refills its credit
// from free, never on the fast path; it must not block. ShrinkUnderPressure
// must be called after Init and before any other method.
func (b *Budget) ShrinkUnderPressure(pressure func() bool) {
	b.pressure = pressure
	b.floor = b.max - b.max/PressureDivisor
}

// ReservePinned takes n bytes of budget for an object about to be cached
// and reports true, or reports false if the budget cannot spare them. The
// caller must be pinned to P pid (runtimex.ProcPin); ReservePinned neither
// blocks nor allocates.
func (b *Budget) ReservePinned(pid int, n int64) bool {
	if pid >= len(b.local) {
		return b.take(n, n) == n
	}
	// Fast path: the P's own credit.
	c := &b.local[pid]
	c.rl.Lock()
	if c.n < n {
		// Slow path: refill the credit from free.
		want := n - c.n
		got := b.take(want, want+b.chunk)
		if got == 0 {
			c.rl.Unlock()
			return false
		}
		c.n += got
	}
	c.n -= n
	c.rl.Unlock()
	return true
}

// Reserve is ReservePinned for a caller that is not pinned.
func (b *Budget) Reserve(n int64) bool {
	pid := runtimex.ProcPin()
	ok := b.ReservePinned(pid, n)
	runtimex.ProcUnpin()
	return ok
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

// ReleasePinned gives back n bytes reserved earlier (a cached object was
// taken or released). The caller must be pinned to P pid.
func (b *Budget) ReleasePinned(pid int, n int64) {
	if pid >= len(b.local) {
		b.free.Add(n)
		return
	}
	c := &b.local[pid]
	c.rl.Lock()
	c.n += n
	var excess int64
	if c.n > 2*b.chunk {
		excess = c.n - b.chunk
		c.n = b.chunk
	}
	c.rl.Unlock()
	if excess > 0 {
		b.free.Add(excess)
	}
}

// Release is ReleasePinned for a caller that is not pinned.
func (b *Budget) Release(n int64) {
	pid := runtimex.ProcPin()
	b.ReleasePinned(pid, n)
	runtimex.ProcUnpin()
}

// Idle returns the bytes reserved by cached objects: exact when the pools
// are quiescent, approximate while they are in use (it reads the credits and
// free at slightly different instants).
func (b *Budget) Idle() int64 {
	idle := b.max - b.free.Load()
	for i := range b.local {
		c := &b.local[i]
		c.rl.LockUnpinned()
		idle -= c.n
		c.rl.UnlockUnpinned()
	}
	return idle
}

// Free returns the budget that no P holds as credit.
func (b *Budget) Free() int64 { return b.free.Load() }

// Max returns the maximum set by Init.
func (b *Budget) Max() int64 { return b.max }
