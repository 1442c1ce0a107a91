package pool

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/poolkit/pool/internal/budget"
	"github.com/poolkit/pool/internal/pooldebug"
	"github.com/poolkit/pool/internal/poolhooks"
	"github.com/poolkit/pool/internal/runtimex"
)

// GC trimming.
//
// There is no runtime hook for "a GC cycle ended" outside package sync, so
// poolkit observes cycles with a sentinel: an unreachable object with a
// cleanup (runtime.AddCleanup). The cleanup runs on the runtime's cleanup
// goroutine after the cycle that found the sentinel dead; it arms a new
// sentinel and trims every pool there, so poolkit starts no goroutine of
// its own (go.uber.org/goleak ignores the cleanup goroutine while it is
// idle). The cleanup can run once for several cycles, so each pass takes
// the exact count from runtime/metrics (/gc/cycles/total:gc-cycles) and each
// pool ages its objects by the number of cycles since its last trim.
//
// A sentinel allocated while a cycle is marking survives that cycle, so the
// end of that cycle runs no cleanup. After each pass a timer (time.AfterFunc:
// no goroutine while it waits) rechecks the cycle count after 10 ms, then
// at doubling intervals, for about ten seconds, and runs the pass itself
// if the count moved; then it stops until the next pass.
//
// The trimmer holds pools through weak pointers to their cores, so an
// unreachable Pool is collected with everything it holds.

var trimmer struct {
	once sync.Once

	mu    sync.Mutex
	pools []func(now uint64) bool // false: the pool is gone; guarded by mu
	last  uint64                  // GC cycle count of the last pass; guarded by mu

	// The recheck timer and its state; guarded by mu.
	timer  *time.Timer
	delay  time.Duration
	rounds int

	// done is the GC cycle count of the last completed pass; tests wait on
	// it.
	done atomic.Uint64

	// pressure is set by each pass: the heap goal is near the memory limit
	// (runtimex.MemoryPressure), so pools ignore MinIdle and drop everything
	// idle, and bytepool shrinks its byte budget.
	pressure atomic.Bool
}

// register adds c to the pools the trimmer visits, arming the first
// sentinel on first use.
func register[T any](c *core[T]) {
	trimmer.once.Do(armSentinel)
	wc := weak.Make(c)
	f := func(now uint64) bool {
		c := wc.Value()
		if c == nil {
			return false
		}
		c.trim(now)
		return true
	}
	trimmer.mu.Lock()
	trimmer.pools = append(trimmer.pools, f)
	trimmer.mu.Unlock()
}

// sentinel is an object made unreachable on purpose: its cleanup runs after
// the GC cycle that finds it dead. It holds a pointer so that it is never a
// tiny allocation batched with other objects.
type sentinel struct {
	_ *sentinel
	_ [2]uintptr
}

func armSentinel() {
	runtime.AddCleanup(new(sentinel), func(struct{}) {
		// Arm the next sentinel first, so that a cycle starting
		// during this pass is observed.
		armSentinel()
		trimPass()
	}, struct{}{})
}

// trimPass trims every pool for the GC cycles completed since the last
// pass. It runs on the runtime's cleanup goroutine.
func trimPass() {
	trimmer.mu.Lock()
	defer trimmer.mu.Unlock()
	now := runtimex.GCCycles()
	if now == trimmer.last {
		return
	}
	trimPassLocked(now)
}

// Recheck intervals: recheckMin doubling to recheckMax, recheckRounds
// times in all.
const (
	recheckMin    = 10 * time.Millisecond
	recheckMax    = 2 * time.Second
	recheckRounds = 12
)

// recheck runs on the timer's goroutine, which ends when it returns.
func recheck() {
	trimmer.mu.Lock()
	defer trimmer.mu.Unlock()
	if now := runtimex.GCCycles(); now != trimmer.last {
		trimPassLocked(now)
		return
	}
	trimmer.rounds++
	if trimmer.rounds < recheckRounds {
		trimmer.delay = min(2*trimmer.delay, recheckMax)
		trimmer.timer.Reset(trimmer.delay)
	}
}

// trimPassLocked is trimPass with trimmer.mu held and the count read.
func trimPassLocked(now uint64) {
	trimmer.last = now
	trimmer.pressure.Store(runtimex.MemoryPressure())
	live := trimmer.pools[:0]
	for _, f := range trimmer.pools {
		if f(now) {
			live = append(live, f)
		}
	}
	clear(trimmer.pools[len(live):])
	trimmer.pools = live
	trimmer.done.Store(now)
	trimmer.rounds, trimmer.delay = 0, recheckMin
	if trimmer.timer == nil {
		trimmer.timer = time.AfterFunc(recheckMin, recheck)
	} else {
		trimmer.timer.Reset(recheckMin)
	}
}

// trim ages the pool's idle objects by the GC cycles completed since the
// last trim.
func (c *core[T]) trim(now uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now <= c.lastCycle {
		return
	}
	cycles := now - c.lastCycle
	c.lastCycle = now
	st := c.pool.st.Load()
	pressure := trimmer.pressure.Load()
	if pressure {
		// Near the memory limit: release everything idle, at once.
		cycles = 2
	}
	// The old lists can be held weakly unless the trimmer must read what
	// it releases: to keep MinIdle objects, or for the debug checks.
	weakOld := c.minIdle == 0 && !pooldebug.On.Load()
	var dropped []T // released, unless the reserve takes them
	var swapped []*shard[T]
	released := 0
	for i := range st.shards {
		s := st.shards[i].Load()
		if s == nil {
			continue
		}
		s.mu.Lock()
		// Old list: released.
		n := len(dropped)
		old, collected := s.old.take()
		dropped = append(dropped, old...)
		clear(old)
		c.held.Add(-int64(len(dropped) - n + collected))
		released += collected

		// Limbo, past its grace period: its objects join the old list
		// (they were in the local block at the last trim).
		var fromLimbo []T
		if b := s.limbo.Load(); b != nil && s.stamp != 0 && s.stamp < now && s.limbo.CompareAndSwap(b, nil) {
			s.lockOwner() // for the race detector: the owner's writes came first
			fromLimbo = append(fromLimbo, b.items[:b.n]...)
			clear(b.items[:b.n])
			b.n = 0
			s.unlockOwner()
		}

		// Shared list (and limbo's objects): to the old list, or
		// released if two cycles have passed.
		next := append(s.shared, fromLimbo...)
		s.shared = nil
		if cycles >= 2 {
			dropped = append(dropped, next...)
			clear(next)
			c.held.Add(-int64(len(next) - len(fromLimbo)))
		} else {
			s.old.set(next, weakOld)
			c.held.Add(int64(len(fromLimbo)))
		}

		// Local block: to limbo, where it waits a GC cycle before the
		// trimmer reads it.
		// (The owner may take it back before then: shard.reclaim.)
		if s.limbo.Load() == nil {
			s.lockOwner()
			if s.local.Load().len() > 0 {
				s.stamp = 0
				s.limbo.Store(s.local.Swap(st.newBlock())) // a fresh block, so the next Put does not allocate
				swapped = append(swapped, s)
			}
			s.unlockOwner()
		}
		s.mu.Unlock()
	}
	if len(swapped) > 0 {
		// The count read after the swaps: once a cycle completes after
		// it, no pinned goroutine can still hold the blocks.
		stamp := runtimex.GCCycles()
		for _, s := range swapped {
			s.mu.Lock()
			s.stamp = stamp
			s.mu.Unlock()
		}
	}
	if pressure {
		released += c.dropReserve(st)
	}
	kept := c.keep(dropped)
	if pooldebug.On.Load() {
		st.debugForget(dropped[kept:])
	}
	clear(dropped)
	c.released(released + len(dropped) - kept)
}

// keep moves objects from objs into the reserve while it holds fewer than
// MinIdle, and returns how many it took. They stay idle: their MaxIdle
// credit and budget bytes stay with them.
func (c *core[T]) keep(objs []T) int {
	if c.minIdle == 0 || len(objs) == 0 || trimmer.pressure.Load() {
		return 0
	}
	c.resMu.Lock()
	defer c.resMu.Unlock()
	k := min(len(objs), max(c.minIdle-len(c.reserve), 0))
	c.reserve = append(c.reserve, objs[:k]...)
	c.held.Add(int64(k))
	return k
}

// dropReserve empties the MinIdle reserve and returns how many objects it
// released.
func (c *core[T]) dropReserve(st *state[T]) int {
	c.resMu.Lock()
	objs := c.reserve
	c.reserve = nil
	c.resMu.Unlock()
	c.held.Add(-int64(len(objs)))
	if pooldebug.On.Load() {
		st.debugForget(objs)
	}
	return len(objs)
}

// released counts n objects released by trimming and gives their MaxIdle
// units and budget bytes back.
func (c *core[T]) released(n int) {
	if n <= 0 {
		return
	}
	c.evicted.Add(uint64(n))
	if c.maxIdle > 0 {
		c.free.Add(int64(n))
	}
	if c.bg != nil {
		c.bg.Release(int64(n) * c.weight)
	}
}

func init() {
	poolhooks.UnderPressure = trimmer.pressure.Load
	poolhooks.SetBudget = func(p any, b *budget.Budget, weight int64, drops *atomic.Uint64) {
		h, ok := p.(interface {
			setBudget(*budget.Budget, int64, *atomic.Uint64)
		})
		if !ok {
			panic("poolhooks.SetBudget: not a *pool.Pool")
		}
		h.setBudget(b, weight, drops)
	}
}

// setBudget implements poolhooks.SetBudget.
func (p *Pool[T]) setBudget(b *budget.Budget, weight int64, drops *atomic.Uint64) {
	st := p.st.Load()
	if st == nil {
		st = p.init()
	}
	c := st.c
	c.mu.Lock()
	c.bg, c.weight, c.bgDrops = b, weight, drops
	st = newState(c, len(st.shards), st)
	p.st.Store(st)
	c.mu.Unlock()
}
