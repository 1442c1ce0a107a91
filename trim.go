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
// cleanup (runtime.AddCleanup) that wakes the trimmer goroutine and arms a
// new sentinel. The cleanup can run once for several cycles, so the trimmer
// takes the exact count from runtime/metrics (/gc/cycles/total:gc-cycles)
// and each pool ages its objects by the number of cycles since its last
// trim.
//
// The trimmer holds pools through weak pointers to their cores, so an
// unreachable Pool is collected with everything it holds.

var trimmer struct {
	once sync.Once
	wake chan struct{}

	mu    sync.Mutex
	pools []func(now uint64) bool // false: the pool is gone; guarded by mu

	// done is the GC cycle count of the last completed pass; tests wait on
	// it.
	done atomic.Uint64

	// pressure is set by each pass: the heap goal is near the memory limit
	// (runtimex.MemoryPressure), so pools ignore MinIdle and drop everything
	// idle, and bytepool shrinks its byte budget.
	pressure atomic.Bool
}

// register adds c to the pools the trimmer visits, starting the trimmer on
// first use.
func register[T any](c *core[T]) {
	trimmer.once.Do(startTrimmer)
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

func startTrimmer() {
	trimmer.wake = make(chan struct{}, 1)
	armSentinel()
	go trimLoop()
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
		select {
		case trimmer.wake <- struct{}{}:
		default: // a pass is already pending; it will read the cycle count
		}
		armSentinel()
	}, struct{}{})
}

// The trimmer also looks at the GC cycle count on a timer: a sentinel
// allocated while a cycle is marking survives that cycle, so the end of that
// cycle wakes nobody. After each pass the timer starts at recheckMin and
// doubles, while nothing changes, up to recheckMax, where it stays: one
// runtime/metrics read a second in an idle program.
const (
	recheckMin = 20 * time.Millisecond
	recheckMax = time.Second
)

func trimLoop() {
	var last uint64
	delay := recheckMin
	recheck := time.NewTimer(delay)
	for {
		select {
		case <-trimmer.wake:
		case <-recheck.C:
		}
		now := runtimex.GCCycles()
		if now == last {
			delay = min(2*delay, recheckMax)
			recheck.Reset(delay)
			continue
		}
		last = now
		trimmer.pressure.Store(runtimex.MemoryPressure())
		trimmer.mu.Lock()
		pools := append([]func(uint64) bool(nil), trimmer.pools...)
		trimmer.mu.Unlock()
		gone := 0
		for _, f := range pools {
			if !f(now) {
				gone++
			}
		}
		if gone > 0 {
			trimmer.mu.Lock()
			live := trimmer.pools[:0]
			for _, f := range trimmer.pools {
				// Pools registered during the pass are kept; gone
				// ones answer false again, cheaply.
				if f(0) {
					live = append(live, f)
				}
			}
			clear(trimmer.pools[len(live):])
			trimmer.pools = live
			trimmer.mu.Unlock()
		}
		trimmer.done.Store(now)
		delay = recheckMin
		recheck.Reset(delay)
	}
}

// trim ages the pool's idle objects by the GC cycles completed since the
// last trim. now == 0 only checks that the pool is alive.
func (c *core[T]) trim(now uint64) {
	c.trimMu.Lock()
	defer c.trimMu.Unlock()
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

	// With MinIdle, retired blocks are harvested into the reserve, which
	// any P can take from: so objects stranded in the block of a P that
	// nobody uses any more become available again after two cycles.
	released := c.harvestRetired(st, now)

	// The old lists can be held weakly unless the trimmer must read what
	// it releases: to keep MinIdle objects, or for the debug checks.
	weakOld := c.minIdle == 0 && !pooldebug.On.Load()
	var dropped []T
	for i := range st.shards {
		s := &st.shards[i]
		// Blocks: local -> victim -> released. With two or more cycles
		// since the last trim, both are past their time.
		if cycles >= 2 {
			if s.local.Load().len() > 0 {
				released += c.retire(s.local.Swap(st.newBlock()))
			}
			released += c.retire(s.victim.Swap(nil))
		} else if s.local.Load().len() > 0 {
			released += c.retire(s.victim.Swap(s.local.Swap(st.newBlock())))
		} else {
			released += c.retire(s.victim.Swap(nil))
		}

		// Shared lists: shared -> old -> released.
		s.mu.Lock()
		n := len(dropped)
		old, collected := s.old.take()
		dropped = append(dropped, old...)
		clear(old)
		if cycles >= 2 {
			dropped = append(dropped, s.shared...)
			clear(s.shared)
			s.shared = s.shared[:0]
		} else {
			s.old.set(s.shared, weakOld)
			s.shared = nil
		}
		s.mu.Unlock()
		c.held.Add(-int64(len(dropped) - n + collected))
		released += collected
	}
	c.stampRetired()
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

// retire takes a block swapped out of a shard by the trimmer or by grow.
// With harvest set it queues the block until a GC cycle has passed (see
// retired) and returns 0; otherwise it lets the block go and returns the
// number of objects in it, read without synchronization: exact when the
// pool is quiescent, as Stats promises.
func (c *core[T]) retire(b *block[T]) int {
	if b == nil {
		return 0
	}
	n := b.len()
	if !c.harvest && !pooldebug.On.Load() {
		return n
	}
	c.retired = append(c.retired, retired[T]{b: b, n: n})
	c.held.Add(int64(n))
	return 0
}

// stampRetired records, on blocks retired since the last call, the GC cycle
// count after their swap: once the count exceeds it, no goroutine in a
// section can still be using them.
func (c *core[T]) stampRetired() {
	var now uint64
	for i := range c.retired {
		r := &c.retired[i]
		if r.stamp == 0 {
			if now == 0 {
				now = runtimex.GCCycles()
			}
			r.stamp = now
		}
	}
}

// harvestRetired moves the objects of retired blocks whose grace period has
// passed into the reserve, up to MinIdle, and returns how many it released.
func (c *core[T]) harvestRetired(st *state[T], now uint64) int {
	released := 0
	pending := c.retired[:0]
	for _, r := range c.retired {
		if r.stamp == 0 || r.stamp >= now {
			pending = append(pending, r)
			continue
		}
		// No goroutine can reach b any more; the lock only shows the
		// race detector the order of the owner's writes and these reads.
		b := r.b
		var objs [blockCap]T
		b.rl.LockUnpinned()
		n := copy(objs[:], b.items[:b.n])
		clear(b.items[:b.n])
		b.n = 0
		b.rl.UnlockUnpinned()
		c.held.Add(-int64(r.n))
		kept := c.keep(objs[:n])
		released += n - kept
		if pooldebug.On.Load() {
			st.debugForget(objs[kept:n])
		}
	}
	clear(c.retired[len(pending):])
	c.retired = pending
	return released
}

// keep moves objects from objs into the reserve while it holds fewer than
// MinIdle (and MaxIdle allows), and returns how many it took.
func (c *core[T]) keep(objs []T) int {
	if c.minIdle == 0 || len(objs) == 0 || trimmer.pressure.Load() {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.reserveHeld(min(len(objs), c.minIdle-len(c.reserve)))
	c.reserve = append(c.reserve, objs[:k]...)
	return k
}

// dropReserve empties the MinIdle reserve and returns how many objects it
// released.
func (c *core[T]) dropReserve(st *state[T]) int {
	c.mu.Lock()
	objs := c.reserve
	c.reserve = nil
	c.mu.Unlock()
	c.held.Add(-int64(len(objs)))
	if pooldebug.On.Load() {
		st.debugForget(objs)
	}
	return len(objs)
}

// released counts n objects released by trimming and gives their bytes
// back to the pool's budget, if it has one.
func (c *core[T]) released(n int) {
	if n <= 0 {
		return
	}
	c.evicted.Add(uint64(n))
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
	c.trimMu.Lock()
	c.harvest = true
	c.bg, c.weight, c.bgDrops = b, weight, drops
	st.bg, st.weight = b, weight
	c.trimMu.Unlock()
}
