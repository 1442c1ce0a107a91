package pool

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/pool/internal/budget"
	"github.com/poolkit/pool/internal/pooldebug"
	"github.com/poolkit/pool/internal/runtimex"
)

// The engine, in tiers:
//
//   - fast path: each P owns a shard (created when the P first uses the
//     pool) whose local block is a small LIFO stack of T. Get and Put enter
//     the shard of their P (enter: pinned to the P with procPin as sync.Pool
//     does, or holding the shard's own lock in the portable build, see
//     pin_runtime.go and pin_portable.go) and touch only that shard;
//   - slow path: the shards' shared lists (one mutex per shard; other Ps
//     steal from them), then the MinIdle reserve, then New;
//   - trimming (trim.go): after each GC cycle, run by the runtime's cleanup
//     goroutine, local blocks move to limbo, limbo to the old list, the
//     shared list to the old list, and the old list is released (held
//     weakly, so the next cycle collects it), unless MinIdle keeps it.
//
// The trimmer never reads a block that a goroutine in the fast path may
// still be using: it swaps the block pointer out and reads the block (in
// limbo) only after a GC cycle has completed, because a cycle's
// stop-the-world phases cannot begin while any goroutine is pinned. The P
// whose block it was need not wait: a goroutine that entered the P's shard
// knows that every goroutine that could have loaded the old block did so
// after entering the same shard, and has left it; so a Get that finds its
// block empty takes the block back from limbo (shard.reclaim), as
// sync.Pool's Get takes from its victim cache.
//
// Bounds. A pool with MaxIdle counts its idle objects against MaxIdle with
// credit, like the byte budget of bytepool (internal/budget):
//
//	idle + Σ shard.count + core.free == MaxIdle, every term >= 0
//
// where idle counts every object in blocks, limbo, shared and old lists and
// the reserve. Put moves one unit from its P's credit (shard.count) to idle,
// a Get hit moves it back, trimming moves released objects' units to free.
// The fast paths touch only their shard's credit; the slow paths refill it
// from free (atomic). A P keeps at most 2*chunk credit.

// blockCap is the largest capacity of a local block: how many objects each
// P caches without taking a lock. When a Put finds its block full, the
// older half moves to the shard's shared list in one locked operation.
const blockCap = 16

// blockBytes bounds the bytes of a block's live items: values larger than
// blockBytes/blockCap get fewer than blockCap places (at least one), so a
// block pins fewer large values; its array still has blockCap places.
const blockBytes = 512

const cacheLine = 64

// block is one P's cache of idle objects.
type block[T any] struct {
	// n is the number of objects in items[:n]. Only a goroutine that
	// entered the owning shard reads or writes n and items while the block
	// is the shard's local block (or was when the goroutine loaded it);
	// once the trimmer swapped it out, it reads them only after a GC cycle
	// has passed (see shardShared.limbo).
	n     int
	limit int // how many items the block may hold, 1 <= limit <= blockCap; immutable
	// items is inline, on the line of n, so that a Get or Put touches one
	// line of the block for the first few objects.
	items [blockCap]T
}

// len returns the number of objects in b; exact only for the owner or
// after the block's grace period.
func (b *block[T]) len() int {
	if b == nil {
		return 0
	}
	return b.n
}

// pop moves the newest object of b out and reports true, or reports false
// if b is nil or empty.
func (b *block[T]) pop() (x T, ok bool) {
	if b == nil {
		return x, false
	}
	n := b.n - 1
	if uint(n) >= blockCap {
		return x, false
	}
	x = b.items[n]
	var zero T
	b.items[n] = zero // do not keep the object alive from the pool
	b.n = n
	return x, true
}

// room reports whether b exists and has room for one more object.
func (b *block[T]) room() bool { return b != nil && b.n < b.limit }

// push adds x to b, which must have room.
func (b *block[T]) push(x T) {
	b.items[b.n&(blockCap-1)] = x // b.n < limit <= blockCap, a power of two
	b.n++
}

// shard is one P's part of a pool. The owner part and the shared part are
// each padded to a multiple of 128 bytes (two cache lines, against the
// adjacent-line prefetcher), and shards are allocated separately (size
// classes of 256 bytes and more are 64-byte aligned), so that Ps stealing
// from the shared part do not slow down the owner.
type shard[T any] struct {
	shardOwner[T]
	_ [128 - ownerSize%128]byte

	shardShared[T]
	_ [128 - sharedSize%128]byte
}

// The sizes of a shard's parts do not depend on T: their fields hold T only
// behind pointers and slices.
const (
	ownerSize  = unsafe.Sizeof(shardOwner[byte]{})
	sharedSize = unsafe.Sizeof(shardShared[byte]{})
)

// shardOwner is the part of a shard that only a goroutine that entered it
// (st.enter) reads or writes, except where a field says otherwise.
type shardOwner[T any] struct {
	rl  runtimex.RaceLock // under -race only: shows the detector the order pinning gives
	own sync.Mutex        // portable build: held by the goroutine that entered the shard

	// local is the P's block, or nil until the P's first Put. The owner
	// loads it (load-acquire); the trimmer swaps it for an empty block
	// (store-release) and reads the old block only after its grace period.
	local atomic.Pointer[block[T]]

	// gets and puts count calls whose fast path entered this shard;
	// written only by the owner, read by Stats.
	gets, puts counter

	// count is the P's MaxIdle credit: how many objects it may cache
	// without taking from core.free. 0 <= count; owner only.
	count int64

	// pid is the shard's index in state.shards (the P id); immutable.
	pid int
}

// shardShared is the part of a shard any goroutine may use under mu.
type shardShared[T any] struct {
	mu sync.Mutex
	// shared holds objects spilled from the local block; old holds those
	// that were in shared (and limbo) at the last trim. Any goroutine may
	// pop from them under mu.
	shared []T
	old    oldList[T]
	// limbo is the local block the last trim swapped out, and stamp the GC
	// cycle count read after the swap: once the count exceeds stamp, no
	// goroutine can still be using the block. The trimmer sets limbo and
	// stamp under mu; whoever takes the block out of limbo (the trimmer
	// once the count exceeds stamp, or a goroutine that entered the shard,
	// see reclaim) does so with a CompareAndSwap to nil, so one of them
	// gets it.
	limbo atomic.Pointer[block[T]]
	stamp uint64
}

// reclaim makes the block in limbo s's local block again and pops from it,
// or reports false if limbo is empty. The caller entered s and found its
// local block empty. Every goroutine that may have loaded the block while
// it was s's local block had entered s too, and has left it since: the
// block is the caller's alone.
func (s *shard[T]) reclaim() (x T, ok bool) {
	b := s.limbo.Load()
	if b == nil || !s.limbo.CompareAndSwap(b, nil) {
		return x, false
	}
	s.local.Store(b)
	return b.pop()
}

// state is the engine of one Pool for a number of Ps.
type state[T any] struct {
	// shards has an entry for every P id below its length (at least
	// GOMAXPROCS when the state was made). Entries are set once, under
	// core.mu, when their P first needs them; a larger state made when
	// GOMAXPROCS grows shares them.
	shards []atomic.Pointer[shard[T]]

	c *core[T]

	counted bool  // MaxIdle is set: the fast paths move credit (see shard.count)
	credit  bool  // counted || bg != nil: the fast paths move some credit
	chunk   int64 // credit a refill gives a P beyond its need; a P keeps at most 2*chunk

	nilable     bool // T's first word is a pointer whose nil means "nil value"
	hasIdentity bool // T's first word identifies the object (debug checks)
	isSlice     bool
	limit       int // capacity of each block, 1 <= limit <= blockCap

	// bg, if set, is a byte budget that every cached object holds weight
	// bytes of (poolhooks.SetBudget); copied from the core.
	bg     *budget.Budget
	weight int64
}

// core is the part of a pool's engine that outlives state replacements.
type core[T any] struct {
	pool *Pool[T]

	minIdle int
	maxIdle int

	// free is the MaxIdle credit that no P holds and no idle object uses;
	// see the invariant at the top of this file. Pools without MaxIdle do
	// not use it.
	free atomic.Int64

	// held counts the objects in shared and old lists and in the reserve:
	// everything idle except what sits in blocks and limbo. Gets read it
	// to skip the shared lists when they are empty.
	held atomic.Int64

	// Counters of the slow paths.
	gets, misses, drops, evicted, puts atomic.Uint64

	// mu serializes state replacement, shard creation and trimming, and
	// guards lastCycle.
	mu        sync.Mutex
	lastCycle uint64 // GC cycle count at the last trim

	resMu   sync.Mutex
	reserve []T // up to minIdle objects kept across GC cycles; guarded by resMu

	// dbg is the POOLDEBUG bookkeeping, created when debug mode first
	// needs it (see debug).
	dbg atomic.Pointer[debugState]

	// bg and weight: see state; bgDrops counts Puts the budget refused.
	// Set by poolhooks.SetBudget before first use.
	bg      *budget.Budget
	weight  int64
	bgDrops *atomic.Uint64
}

// init creates the pool's state on first use.
func (p *Pool[T]) init() *state[T] {
	c := &core[T]{
		pool:    p,
		minIdle: max(p.MinIdle, 0),
		maxIdle: max(p.MaxIdle, 0),
	}
	if c.maxIdle > 0 {
		c.minIdle = min(c.minIdle, c.maxIdle)
		c.free.Store(int64(c.maxIdle))
	}
	c.lastCycle = runtimex.GCCycles()
	// No shards yet: the first Get or Put of each P creates its own
	// (attach), so a pool nobody uses costs only its core.
	st := newState(c, 0, nil)
	if !p.st.CompareAndSwap(nil, st) {
		return p.st.Load() // another goroutine won; c is garbage
	}
	register(c)
	return st
}

// newState returns a state with n shard entries, sharing the shards of old
// if it is not nil.
func newState[T any](c *core[T], n int, old *state[T]) *state[T] {
	st := &state[T]{
		shards:  make([]atomic.Pointer[shard[T]], n),
		c:       c,
		counted: c.maxIdle > 0,
		limit:   blockCap,
		bg:      c.bg,
		weight:  c.weight,
	}
	st.credit = st.counted || st.bg != nil
	if st.counted {
		// Credit stranded in other Ps is at most 2*chunk*n, a quarter of
		// what MinIdle leaves of MaxIdle: one goroutine can always fill
		// MinIdle and three quarters of MaxIdle.
		st.chunk = int64(c.maxIdle-c.minIdle) / int64(8*max(n, runtime.GOMAXPROCS(0)))
	}
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan:
		st.nilable, st.hasIdentity = true, true
	case reflect.Slice:
		st.nilable, st.hasIdentity, st.isSlice = true, true, true
	case reflect.Func, reflect.Interface:
		st.nilable = true
	}
	var zero T
	if size := unsafe.Sizeof(zero); size > 0 {
		st.limit = int(min(max(blockBytes/size, 1), blockCap))
	}
	if old != nil {
		for i := range old.shards {
			st.shards[i].Store(old.shards[i].Load())
		}
	}
	return st
}

// attach makes sure the calling goroutine's P (in the portable build: the
// first index without one) has a shard, growing the state if GOMAXPROCS grew, and returns the
// current state. The goroutine may have moved to another P by the time it
// returns; callers retry.
func (p *Pool[T]) attach() *state[T] {
	c := p.st.Load().c
	c.mu.Lock()
	defer c.mu.Unlock()
	st := p.st.Load()
	if n := runtime.GOMAXPROCS(0); n > len(st.shards) {
		st = newState(c, n, st)
		p.st.Store(st)
	}
	i := st.slotToCreate()
	if i >= len(st.shards) {
		st = newState(c, i+1, st)
		p.st.Store(st)
	}
	if st.shards[i].Load() == nil {
		s := new(shard[T])
		s.pid = i
		st.shards[i].Store(s)
	}
	return st
}

// newBlock returns an empty block sized for st's values.
func (st *state[T]) newBlock() *block[T] {
	return &block[T]{limit: st.limit}
}

// giveCount adds one unit to the owner's MaxIdle credit (an object left the
// pool) and returns the excess beyond 2*chunk, which the caller gives back
// to core.free once out of the fast path. The caller entered s.
func (s *shard[T]) giveCount(chunk int64) (excess int64) {
	s.count++
	if s.count > 2*chunk {
		excess = s.count - chunk
		s.count = chunk
	}
	return excess
}

// takeCredits takes the MaxIdle unit and the budget bytes of an object about
// to be cached from the credit of s's P and reports true, or reports false,
// taking nothing, if either is short. The caller entered s.
func (st *state[T]) takeCredits(s *shard[T]) bool {
	if st.counted && s.count < 1 || st.bg != nil && !takeCredit(st.bg, s.pid, st.weight) {
		return false
	}
	if st.counted {
		s.count--
	}
	return true
}

// release gives back credit a fast path could not keep: count units to
// core.free and bytes to the byte budget.
func (st *state[T]) release(count, bytes int64) {
	if count != 0 {
		st.c.free.Add(count)
	}
	if bytes != 0 {
		st.bg.Release(bytes)
	}
}

// takeFree moves between lo and hi units of MaxIdle credit out of free and
// returns how many, or 0 if free holds fewer than lo.
func (c *core[T]) takeFree(lo, hi int64) int64 {
	for {
		f := c.free.Load()
		if f < lo {
			return 0
		}
		got := min(f, hi)
		if c.free.CompareAndSwap(f, f-got) {
			return got
		}
	}
}

// getSlow is Get's slow path: the caller's P had nothing in its block (the
// Get was counted on its shard: counted), or has no shard yet.
func (p *Pool[T]) getSlow(st *state[T], counted bool) T {
	c := st.c
	if !counted {
		c.gets.Add(1)
	}
	x, ok := st.stealLocal()
	if !ok && c.held.Load() > 0 {
		x, ok = st.takeShared(hint(len(st.shards)))
		if !ok {
			x, ok = c.takeReserve()
		}
	}
	if ok {
		st.release(b2i(st.counted), st.weight)
		if pooldebug.On.Load() {
			p.debugGet(st, &x, true)
		}
		return x
	}
	c.misses.Add(1)
	if p.New != nil {
		x = p.New()
	}
	if pooldebug.On.Load() {
		p.debugGet(st, &x, false)
	}
	return x
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// takeShared pops an object from the shared and old lists, shard first's,
// then the others' (stealing).
func (st *state[T]) takeShared(first int) (T, bool) {
	n := len(st.shards)
	for i := range n {
		s := st.shards[(first+i)%n].Load()
		if s == nil {
			continue
		}
		s.mu.Lock()
		x, ok := popList(&s.shared)
		collected := 0
		if !ok {
			x, ok, collected = s.old.pop()
		}
		s.mu.Unlock()
		if collected > 0 {
			st.c.held.Add(-int64(collected))
			st.c.released(collected)
		}
		if ok {
			st.c.held.Add(-1)
			return x, true
		}
	}
	var zero T
	return zero, false
}

// popList removes and returns the last object of *l.
func popList[T any](l *[]T) (T, bool) {
	var zero T
	n := len(*l) - 1
	if n < 0 {
		return zero, false
	}
	x := (*l)[n]
	(*l)[n] = zero
	*l = (*l)[:n]
	return x, true
}

func (c *core[T]) takeReserve() (T, bool) {
	c.resMu.Lock()
	x, ok := popList(&c.reserve)
	c.resMu.Unlock()
	if ok {
		c.held.Add(-1)
	}
	return x, ok
}

// putSlow caches x, admitted by Put and not yet counted, when the fast path
// could not: the caller's P has no shard or block yet, its credit is short,
// or its block is full (then the older half of the block moves to the
// shard's shared list).
func (p *Pool[T]) putSlow(st *state[T], x T) {
	c := st.c
	// x's count unit and bytes, once taken from the free pools rather than
	// from the P's credit (paidUnit, paidBytes), and credit taken beyond
	// x's need for the P, not yet handed to a shard (units, bytes).
	var paidUnit, paidBytes bool
	var units, bytes int64
	var nb *block[T] // a block allocated outside the fast path
	for range 8 {
		s := st.enter()
		if s == nil {
			st.exit(nil)
			st = p.attach()
			continue
		}
		// Hand the credit brought for the P to this P.
		s.count += units
		units = 0
		var excess int64
		if bytes != 0 {
			excess = giveCredit(st.bg, s.pid, bytes)
			bytes = 0
		}
		needUnit := st.counted && !paidUnit && s.count < 1
		needBytes := st.bg != nil && !paidBytes && !hasCredit(st.bg, s.pid, st.weight)
		b := s.local.Load()
		if needUnit || needBytes || b == nil && nb == nil {
			st.exit(s)
			st.release(0, excess)
			if needUnit {
				got := c.takeFree(1, 1+st.chunk)
				if got == 0 {
					c.putDrop(st, x, nil)
					return
				}
				paidUnit, units = true, got-1
			}
			if needBytes {
				got := st.bg.Refill(st.weight)
				if got == 0 {
					st.release(units+b2i(paidUnit), 0)
					c.putDrop(st, x, c.bgDrops)
					return
				}
				paidBytes, bytes = true, got-st.weight
			}
			if b == nil && nb == nil {
				nb = st.newBlock()
			}
			continue
		}
		if b == nil {
			b = nb
			s.local.Store(b)
		}
		if st.counted && !paidUnit {
			s.count--
		}
		if st.bg != nil && !paidBytes {
			takeCredit(st.bg, s.pid, st.weight)
		}
		s.puts.inc()
		if b.room() {
			b.push(x)
			st.exit(s)
			st.release(0, excess)
			return
		}
		// Full: the older half moves to the shared list; x stays local.
		var out [blockCap / 2]T
		k := (b.n + 1) / 2
		copy(out[:], b.items[:k])
		copy(b.items[:], b.items[k:b.n])
		clear(b.items[b.n-k : b.n])
		b.n -= k
		b.push(x)
		st.exit(s)
		st.release(0, excess)
		s.mu.Lock()
		s.shared = append(s.shared, out[:k]...)
		s.mu.Unlock()
		c.held.Add(int64(k))
		clear(out[:k])
		return
	}
	// GOMAXPROCS kept changing under us: give up on this Put.
	st.release(units+b2i(paidUnit), bytes+st.weight*b2i(paidBytes && st.bg != nil))
	c.putDrop(st, x, nil)
}

// putDrop counts a Put whose object the pool refused after admitting it
// (MaxIdle or the byte budget reached; reason counts budget refusals).
func (c *core[T]) putDrop(st *state[T], x T, reason *atomic.Uint64) {
	c.puts.Add(1)
	c.drops.Add(1)
	if reason != nil {
		reason.Add(1)
	}
	if pooldebug.On.Load() {
		st.debugForget([]T{x})
	}
}

// dropOnPut counts a Put that did not cache its argument.
func (c *core[T]) dropOnPut() {
	c.puts.Add(1)
	c.drops.Add(1)
}

// stats sums the counters of all shards and the core.
func (st *state[T]) stats() Stats {
	c := st.c
	s := Stats{
		Gets:    c.gets.Load(),
		Puts:    c.puts.Load(),
		Misses:  c.misses.Load(),
		Drops:   c.drops.Load(),
		Evicted: c.evicted.Load(),
	}
	idle := c.held.Load()
	for i := range st.shards {
		sh := st.shards[i].Load()
		if sh == nil {
			continue
		}
		s.Gets += sh.gets.load()
		s.Puts += sh.puts.load()
		sh.mu.Lock()
		sh.lockOwner()
		idle += int64(sh.local.Load().len() + sh.limbo.Load().len())
		sh.unlockOwner()
		sh.mu.Unlock()
	}
	s.Idle = int(max(idle, 0))
	return s
}

// takeCredit takes n bytes of P i's budget credit for an object about to be
// cached and reports true, or reports false, taking nothing, if the credit
// is short (the caller then refills from the budget's free bytes). The
// caller entered the shard of P i. The portable build keeps no credit.
func takeCredit(bg *budget.Budget, i int, n int64) bool {
	if !pinned || uint(i) >= uint(len(bg.Local)) {
		return false
	}
	c := &bg.Local[i]
	raceLock(&c.RL)
	ok := c.N >= n
	if ok {
		c.N -= n
	}
	raceUnlock(&c.RL)
	return ok
}

// hasCredit reports whether P i's budget credit covers n bytes; see
// takeCredit. The portable build reports true, so callers reserve from the
// budget's free bytes directly.
func hasCredit(bg *budget.Budget, i int, n int64) bool {
	if !pinned || uint(i) >= uint(len(bg.Local)) {
		return false
	}
	c := &bg.Local[i]
	raceLock(&c.RL)
	ok := c.N >= n
	raceUnlock(&c.RL)
	return ok
}

// giveCredit adds n bytes to P i's credit (a cached object was taken, or a
// refill brought more than its need) and returns the excess the P may not
// keep, beyond 2*Chunk, which the caller must give back with bg.Release
// once out of the fast path. The caller entered the shard of P i.
func giveCredit(bg *budget.Budget, i int, n int64) (excess int64) {
	if !pinned || uint(i) >= uint(len(bg.Local)) {
		return n
	}
	c := &bg.Local[i]
	raceLock(&c.RL)
	c.N += n
	if chunk := bg.Chunk; c.N > 2*chunk {
		excess = c.N - chunk
		c.N = chunk
	}
	raceUnlock(&c.RL)
	return excess
}
