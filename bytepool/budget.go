package bytepool

import (
	"runtime"
	"sync/atomic"

	"github.com/poolkit/pool/internal/runtimex"
)

// budget counts the idle bytes a Pool holds against MaxBytes without a
// shared atomic on the fast path.
//
// The bytes of the budget are in one of three places: reserved by a cached
// object (idle), held as credit by a P (local[pid].n), or free. Invariant:
//
//	idle + Σ local[pid].n + free == max, with every term >= 0
//
// so idle never exceeds max. reserve takes from its P's credit and, when
// that runs short, moves budget from free to the credit (up to chunk more
// than it needs); release gives bytes back to its P's credit and returns
// the excess above 2*chunk to free. Credit held by other Ps cannot be used:
// a Put may be dropped for the budget while idle bytes are up to
// 2*chunk*GOMAXPROCS (at most max/4) below max.
type budget struct {
	max   int64
	chunk int64    // credit a P takes beyond its need; it keeps at most 2*chunk
	local []credit // indexed by P id, sized at first use; Ps beyond it use free directly
	_     [24]byte // the fields above are read-only; keep them off free's cache line
	free  atomic.Int64
	_     [56]byte // free is written by every slow path
}

// credit is one P's share of the budget.
type credit struct {
	rl raceLock // orders the P's accesses for the race detector
	n  int64    // bytes the P may reserve; accessed only while pinned to the P
	_  [56]byte // one cache line per P
}

func (b *budget) init(max int64) {
	procs := runtime.GOMAXPROCS(0)
	b.max = max
	b.chunk = min(max/int64(8*procs), 1<<20)
	b.local = make([]credit, procs)
	b.free.Store(max)
}

// reserve takes n bytes of budget for an object about to be cached and
// reports true, or reports false if the budget cannot spare them.
func (b *budget) reserve(n int64) bool {
	pid := runtimex.ProcPin()
	if pid >= len(b.local) {
		runtimex.ProcUnpin()
		return b.take(n, n) == n
	}
	// Fast path: the P's own credit.
	c := &b.local[pid]
	c.rl.lock()
	if c.n < n {
		// Slow path: refill the credit from free (still pinned: take
		// neither blocks nor allocates).
		want := n - c.n
		got := b.take(want, want+b.chunk)
		if got == 0 {
			c.rl.unlock()
			runtimex.ProcUnpin()
			return false
		}
		c.n += got
	}
	c.n -= n
	c.rl.unlock()
	runtimex.ProcUnpin()
	return true
}

// take moves as much as it can, up to hi bytes, out of free and returns the
// amount, or moves nothing and returns 0 if free holds less than lo.
func (b *budget) take(lo, hi int64) int64 {
	for {
		free := b.free.Load()
		if free < lo {
			return 0
		}
		got := min(free, hi)
		if b.free.CompareAndSwap(free, free-got) {
			return got
		}
	}
}

// release gives back n bytes reserved earlier (a cached object was taken or
// evicted).
func (b *budget) release(n int64) {
	pid := runtimex.ProcPin()
	if pid >= len(b.local) {
		runtimex.ProcUnpin()
		b.free.Add(n)
		return
	}
	c := &b.local[pid]
	c.rl.lock()
	c.n += n
	var excess int64
	if c.n > 2*b.chunk {
		excess = c.n - b.chunk
		c.n = b.chunk
	}
	c.rl.unlock()
	runtimex.ProcUnpin()
	if excess > 0 {
		b.free.Add(excess)
	}
}

// idle returns the bytes reserved by cached objects: exact when the pool is
// quiescent, approximate while it is in use.
func (b *budget) idle() int64 {
	idle := b.max - b.free.Load()
	for i := range b.local {
		c := &b.local[i]
		c.rl.lock()
		idle -= c.n
		c.rl.unlock()
	}
	return idle
}
