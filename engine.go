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
//   - fast path: each P owns a shard whose local block is a small LIFO stack
//     of T, used only by the goroutine pinned to that P (no lock, no atomic
//     read-modify-write, no interface conversion);
//   - slow path: the shard's victim block (last GC cycle's local block),
//     then the shards' shared lists (mutex per shard; other Ps steal from
//     them), then the MinIdle reserve, then New;
//   - trimming: after each GC cycle the trimmer goroutine (trim.go) rotates
//     local -> victim -> released, and shared -> old -> released, so an
//     idle object lives at most two cycles unless MinIdle keeps it (the old
//     list is held weakly, see oldlist.go).
//
// The trimmer never reads a block that a pinned goroutine may still be using:
// it swaps block pointers atomically, and reads a swapped-out ("retired")
// block only after a full GC cycle has passed, because a GC cycle's
// stop-the-world phases cannot begin while any goroutine is pinned.

// blockCap is the capacity of a local block: how many objects each P caches
// without taking a lock. When a Put finds its block full, the older half
// moves to the shard's shared list in one locked operation.
const blockCap = 16

// block is one P's cache of idle objects.
type block[T any] struct {
	_ [cacheLine]byte // keeps the hot fields off other objects' cache lines

	rl runtimex.RaceLock // under -race only: orders accesses for the detector

	// n is the number of objects in items[:n]. Only the goroutine pinned to
	// the owning P reads or writes n and items while the block is installed
	// in the shard; after the block is swapped out, the trimmer reads them
	// only once a GC cycle has passed (see retired).
	n     int
	items [blockCap]T

	// limit is how many objects the block may hold (<= blockCap); set
	// before the block is published, immutable afterwards.
	limit int

	_ [cacheLine]byte
}

// len returns the number of objects in b. Called by goroutines other than
// the owner, it is approximate (a plain word-sized read of n).
func (b *block[T]) len() int {
	if b == nil {
		return 0
	}
	b.rl.LockUnpinned()
	n := b.n
	b.rl.UnlockUnpinned()
	return n
}

const cacheLine = 64

// shard is one P's part of a pool. The owner part and the shared part are
// each padded to a multiple of 128 bytes (two cache lines, against the
// adjacent-line prefetcher) so that Ps stealing from the shared part do not
// slow down the owner.
type shard[T any] struct {
	shardOwner[T]
	_ [128 - ownerSize%128]byte

	shardShared[T]
	_ [128 - sharedSize%128]byte
}

const (
	ptrSize    = unsafe.Sizeof(uintptr(0))
	ownerSize  = 2*ptrSize + 2*unsafe.Sizeof(counter{})
	sharedSize = unsafe.Sizeof(sync.Mutex{}) + ptrSize + unsafe.Sizeof([]int(nil)) + unsafe.Sizeof(oldList[int]{})
)

type shardOwner[T any] struct {
	// local is the P's current block. The owner loads it (load-acquire) and
	// uses it while pinned; the trimmer replaces it (store-release) with an
	// empty block and never touches the old one within the same GC cycle.
	local atomic.Pointer[block[T]]
	// victim is the previous cycle's local block, or nil. Same protocol.
	victim atomic.Pointer[block[T]]

	// gets and puts count calls made on this P; written only by the owner
	// while pinned.
	gets, puts counter
}

type shardShared[T any] struct {
	mu sync.Mutex
	// dead is set, under mu, when the state holding this shard has been
	// replaced after GOMAXPROCS grew: its lists were moved to the new state
	// and nothing may be added to them.
	dead bool
	// shared holds objects spilled from local blocks; old holds those that
	// were in shared at the last trim. Any P may pop from them under mu.
	shared []T
	old    oldList[T]
}

// state is the engine of one Pool for one GOMAXPROCS value.
type state[T any] struct {
	shards []shard[T] // one per P; immutable
	c      *core[T]   // survives replacement of the state

	nilable     bool // T's first word is a pointer whose nil means "nil value"
	hasIdentity bool // T's first word identifies the object (debug checks)
	isSlice     bool
	limit       int // capacity of each block, 0 <= limit <= blockCap

	// bg, if set, is a byte budget that every cached object holds weight
	// bytes of (poolhooks.SetBudget); copied from the core.
	bg     *budget.Budget
	weight int64
}

// core is the part of a pool's engine that outlives GOMAXPROCS changes.
type core[T any] struct {
	pool *Pool[T]

	minIdle int
	maxIdle int
	harvest bool // retire swapped-out blocks and read them after a grace period (MinIdle > 0 or a budget)

	// held counts the objects in shared lists, the reserve and retired
	// blocks: everything idle except what sits in installed blocks.
	// Spills reserve room in it with a CAS loop bounded by sharedCap.
	held      atomic.Int64
	sharedCap atomic.Int64 // bound on held for spills; -1: unbounded

	misses, drops, evicted, puts atomic.Uint64

	// old holds the shards of states replaced after GOMAXPROCS grew: a
	// goroutine that loaded such a state may still count a Get or Put in
	// them, so Stats keeps summing them. Written under trimMu, read by Stats
	// through the atomic pointer.
	old atomic.Pointer[[][]shard[T]]

	mu      sync.Mutex
	reserve []T // up to minIdle objects kept across GC cycles; guarded by mu

	dbg debugState // POOLDEBUG bookkeeping; used only while debug mode is on

	// bg and weight: see state; bgDrops counts Puts the budget refused.
	// Set by poolhooks.SetBudget before first use.
	bg      *budget.Budget
	weight  int64
	bgDrops *atomic.Uint64

	// trimMu serializes trimming and state replacement; it guards the
	// fields below.
	trimMu    sync.Mutex
	lastCycle uint64       // GC cycle count at the last trim
	retired   []retired[T] // swapped-out blocks waiting for their grace period
}

// retired is a block swapped out of a shard by the trimmer. A goroutine that
// loaded the block before the swap may still be using it while pinned; once
// a GC cycle has completed after stamp, none can be.
type retired[T any] struct {
	b     *block[T]
	n     int    // b.n as read at retirement, added to held
	stamp uint64 // GC cycle count read after the swap
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
	}
	c.harvest = c.minIdle > 0
	c.lastCycle = runtimex.GCCycles()
	st := newState(c, runtime.GOMAXPROCS(0))
	if !p.st.CompareAndSwap(nil, st) {
		return p.st.Load() // another goroutine won; c is garbage
	}
	register(c)
	return st
}

// newState returns a state with n shards, sized for c's bounds.
//
// Bound: with MaxIdle set, each of the n local blocks and n victim blocks
// holds at most limit objects (4n blocks when retired blocks may wait for
// harvest), and held is kept at most MaxIdle minus those, so Idle never
// exceeds MaxIdle. When MaxIdle is too small to give every block one slot,
// the blocks are disabled (limit 0) and every object goes through the shared
// lists.
func newState[T any](c *core[T], n int) *state[T] {
	st := &state[T]{
		shards: make([]shard[T], n),
		c:      c,
		limit:  blockCap,
		bg:     c.bg,
		weight: c.weight,
	}
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan:
		st.nilable, st.hasIdentity = true, true
	case reflect.Slice:
		st.nilable, st.hasIdentity, st.isSlice = true, true, true
	case reflect.Func, reflect.Interface:
		st.nilable = true
	}
	c.sharedCap.Store(-1)
	if c.maxIdle > 0 {
		blocks := 2 * n
		if c.harvest {
			blocks = 4 * n
		}
		st.limit = min(blockCap, c.maxIdle/blocks)
		c.sharedCap.Store(int64(c.maxIdle - blocks*st.limit))
	}
	for i := range st.shards {
		st.shards[i].local.Store(st.newBlock())
	}
	return st
}

func (st *state[T]) newBlock() *block[T] {
	return &block[T]{limit: st.limit}
}

// getSlow is Get's slow path, entered pinned to P pid.
func (p *Pool[T]) getSlow(st *state[T], pid int) T {
	if pid >= len(st.shards) {
		runtimex.ProcUnpin()
		p.grow()
		return p.Get()
	}
	// Still pinned: the victim block is ours too.
	if v := st.shards[pid].victim.Load(); v != nil {
		v.rl.Lock()
		if n := v.n - 1; n >= 0 {
			x := v.items[n]
			var zero T
			v.items[n] = zero
			v.n = n
			v.rl.Unlock()
			if st.bg != nil {
				st.bg.ReleasePinned(pid, st.weight)
			}
			runtimex.ProcUnpin()
			return p.handOut(st, x, true)
		}
		v.rl.Unlock()
	}
	runtimex.ProcUnpin()
	c := st.c
	if c.held.Load() > 0 {
		x, ok := st.takeShared(pid)
		if !ok {
			x, ok = c.takeReserve()
		}
		if ok {
			if st.bg != nil {
				st.bg.Release(st.weight)
			}
			return p.handOut(st, x, true)
		}
	}
	c.misses.Add(1)
	var x T
	if p.New != nil {
		x = p.New()
	}
	return p.handOut(st, x, false)
}

// handOut runs the debug bookkeeping, when debug mode is on, for x about to
// be returned by Get.
func (p *Pool[T]) handOut(st *state[T], x T, hit bool) T {
	if pooldebug.On.Load() {
		p.debugGet(st, &x, hit)
	}
	return x
}

// takeShared pops an object from the shared lists, this P's shard first,
// then the others (stealing).
func (st *state[T]) takeShared(pid int) (T, bool) {
	n := len(st.shards)
	for i := range n {
		s := &st.shards[(pid+i)%n]
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
	c.mu.Lock()
	x, ok := popList(&c.reserve)
	c.mu.Unlock()
	if ok {
		c.held.Add(-1)
	}
	return x, ok
}

// putSlow is Put's slow path, entered pinned to P pid, with x already
// counted (if pid has a shard) and accepted by Reset and Keep.
func (p *Pool[T]) putSlow(st *state[T], pid int, x T) {
	if pid >= len(st.shards) {
		runtimex.ProcUnpin()
		st = p.grow()
		st.c.puts.Add(1) // not counted on a shard: pid had none
		if st.bg != nil && !st.bg.Reserve(st.weight) {
			st.c.budgetDrop(st, x)
			return
		}
		st.spill(0, []T{x})
		return
	}
	// The local block is full (or disabled): move its older half and x's
	// place in line to the shared list, keeping the newest objects local.
	var out [blockCap/2 + 1]T
	b := st.shards[pid].local.Load()
	b.rl.Lock()
	k := b.n / 2
	copy(out[:k], b.items[:k])
	copy(b.items[:], b.items[k:b.n])
	clear(b.items[b.n-k : b.n])
	b.n -= k
	if b.n < b.limit {
		b.items[b.n] = x
		b.n++
	} else {
		out[k] = x // limit 0: blocks are disabled
		k++
	}
	b.rl.Unlock()
	runtimex.ProcUnpin()
	st.spill(pid, out[:k])
	clear(out[:k])
}

// spill appends objs (oldest first) to shard pid's shared list, dropping the
// oldest of them if the pool is at MaxIdle.
func (st *state[T]) spill(pid int, objs []T) {
	c := st.c
	k := c.reserveHeld(len(objs))
	if d := len(objs) - k; d > 0 {
		c.drops.Add(uint64(d))
		if st.bg != nil {
			st.bg.Release(int64(d) * st.weight)
		}
		if pooldebug.On.Load() {
			st.debugForget(objs[:d])
		}
		objs = objs[d:]
	}
	if k == 0 {
		return
	}
	s := &st.shards[pid]
	s.mu.Lock()
	if s.dead {
		// GOMAXPROCS grew and this state was replaced after we loaded it.
		s.mu.Unlock()
		c.held.Add(-int64(k))
		c.pool.st.Load().spill(0, objs)
		return
	}
	s.shared = append(s.shared, objs...)
	s.mu.Unlock()
}

// reserveHeld adds up to k to held without exceeding sharedCap and returns
// how much it added.
func (c *core[T]) reserveHeld(k int) int {
	limit := c.sharedCap.Load()
	if limit < 0 {
		c.held.Add(int64(k))
		return k
	}
	for {
		h := c.held.Load()
		room := int(max(limit-h, 0))
		k = min(k, room)
		if k == 0 || c.held.CompareAndSwap(h, h+int64(k)) {
			return k
		}
	}
}

// budgetDrop counts a Put whose object the byte budget refused.
func (c *core[T]) budgetDrop(st *state[T], x T) {
	c.drops.Add(1)
	c.bgDrops.Add(1)
	if pooldebug.On.Load() {
		st.debugForget([]T{x})
	}
}

// dropOnPut counts a Put that did not cache its argument.
func (c *core[T]) dropOnPut() {
	c.puts.Add(1)
	c.drops.Add(1)
}

// grow replaces the state with one that has a shard for every P, after
// GOMAXPROCS grew. Objects in the old shared lists move to the new state;
// objects in the old blocks are released like trimmed ones.
func (p *Pool[T]) grow() *state[T] {
	old := p.st.Load()
	c := old.c
	c.trimMu.Lock()
	defer c.trimMu.Unlock()
	old = p.st.Load()
	n := runtime.GOMAXPROCS(0)
	if len(old.shards) >= n {
		return old
	}
	st := newState(c, n)
	var olds [][]shard[T]
	if o := c.old.Load(); o != nil {
		olds = *o
	}
	olds = append(olds[:len(olds):len(olds)], old.shards)
	c.old.Store(&olds)
	p.st.Store(st)
	var released int
	for i := range old.shards {
		s := &old.shards[i]
		// A goroutine that loaded the old state may still pin and use
		// s.local: give it an empty, disabled block, whose Puts spill to
		// the (dead) shared list and are redirected to the new state.
		released += c.retire(s.local.Swap(&block[T]{}))
		released += c.retire(s.victim.Swap(nil))
		s.mu.Lock()
		s.dead = true
		old, collected := s.old.take()
		moved := append(s.shared, old...)
		s.shared = nil
		s.mu.Unlock()
		c.held.Add(-int64(collected))
		released += collected
		ns := &st.shards[i]
		ns.mu.Lock()
		ns.shared = append(ns.shared, moved...)
		ns.mu.Unlock()
	}
	c.stampRetired()
	c.released(released)
	return st
}

// stats sums the counters of all shards and the core.
func (st *state[T]) stats() Stats {
	c := st.c
	s := Stats{
		Puts:    c.puts.Load(),
		Misses:  c.misses.Load(),
		Drops:   c.drops.Load(),
		Evicted: c.evicted.Load(),
	}
	idle := c.held.Load()
	for i := range st.shards {
		sh := &st.shards[i]
		s.Gets += sh.gets.load()
		s.Puts += sh.puts.load()
		idle += int64(sh.local.Load().len() + sh.victim.Load().len())
	}
	if o := c.old.Load(); o != nil {
		for _, shards := range *o {
			for i := range shards {
				s.Gets += shards[i].gets.load()
				s.Puts += shards[i].puts.load()
			}
		}
	}
	s.Idle = int(max(idle, 0))
	return s
}
