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
//   - fast path: each slot (a thread, see runtimex.Slot) owns a shard whose
//     local block is a small LIFO stack of T, used only inside a section on
//     that slot: a nosplit function the goroutine cannot be preempted in,
//     so it needs no lock, no atomic read-modify-write and, unlike
//     runtime.procPin, not even a call to leave it. Values larger than
//     maxFastSize skip it (a nosplit function copying them could overflow
//     the nosplit stack limit), as does a thread without a slot;
//   - slow path: the shard's victim block (last GC cycle's local block),
//     then the shards' shared lists (mutex per shard; other slots steal from
//     them), then the MinIdle reserve, then New;
//   - trimming: after each GC cycle the trimmer goroutine (trim.go) rotates
//     local -> victim -> released, and shared -> old -> released, so an
//     idle object lives at most two cycles unless MinIdle keeps it (the old
//     list is held weakly, see oldlist.go).
//
// The trimmer never reads a block that a goroutine in a section may still be
// using: it swaps block pointers atomically, and reads a swapped-out
// ("retired") block only after a full GC cycle has passed, because a GC
// cycle's stop-the-world phases cannot begin while any goroutine is in a
// section (it cannot be preempted there) or pinned.

// maxFastSize is the largest value size that takes the per-slot fast path.
// Values the compiler cannot keep in registers (arrays of two or more
// elements, structs of more than four fields, anything over four words) are
// copied, when they hold pointers, by runtime.wbMove and wbZero, whose
// nosplit call chains leave the sections about 300 bytes of the linker's
// nosplit stack limit; 32 bytes is the largest size for which every such
// shape links (TestValueShapes builds pools of values around the bound,
// on every architecture we cross-compile for).
const maxFastSize = 32

// blockCap is the capacity of a local block: how many objects each slot caches
// without taking a lock. When a Put finds its block full, the older half
// moves to the shard's shared list in one locked operation.
const blockCap = 16

// block is one slot's cache of idle objects.
type block[T any] struct {
	_ [cacheLine]byte // keeps the hot fields off other objects' cache lines

	rl runtimex.RaceLock // under -race only: orders accesses for the detector

	// n is the number of objects in items[:n]. Only a goroutine in a
	// section of the owning slot reads or writes n and items while the
	// block is installed in the shard (or was when the goroutine loaded
	// it); after the block is swapped out, the trimmer reads them only once
	// a GC cycle has passed (see retired).
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

// popVictim is pop for a victim block, which may be nil.
//
//go:nosplit
func (b *block[T]) popVictim(x *T) bool {
	return b != nil && b.pop(x)
}

// pop moves the newest object of b to *x and reports true, or reports false
// if b is empty. The caller must be in a section of b's slot.
//
//go:nosplit
func (b *block[T]) pop(x *T) bool {
	raceLock(&b.rl)
	n := b.n - 1
	if n >= 0 {
		*x = b.items[n]
		var zero T
		b.items[n] = zero // do not keep the object alive from the pool
		b.n = n
	}
	raceUnlock(&b.rl)
	return n >= 0
}

// push adds *x to b and reports true, or reports false if b is full. The
// caller must be in a section of b's slot.
//
//go:nosplit
func (b *block[T]) push(x *T) bool {
	raceLock(&b.rl)
	n := b.n
	ok := n < b.limit
	if ok {
		b.items[n] = *x
		b.n = n + 1
	}
	raceUnlock(&b.rl)
	return ok
}

// takeCredit takes n bytes of slot i's budget credit for an object about to
// be cached and reports true, or reports false, taking nothing, if the
// credit is short (the caller then refills from the budget's free bytes).
// The caller must be in a section of slot i.
//
//go:nosplit
func takeCredit(bg *budget.Budget, i int, n int64) bool {
	c := &bg.Local[i]
	raceLock(&c.RL)
	ok := c.N >= n
	if ok {
		c.N -= n
	}
	raceUnlock(&c.RL)
	return ok
}

// giveCredit adds n bytes to slot i's credit (a cached object was taken, or
// a refill brought more than its need) and returns the excess the slot may
// not keep, beyond 2*Chunk, which the caller must give back with
// bg.Release once out of its section. The caller must be in a section of
// slot i.
//
//go:nosplit
func giveCredit(bg *budget.Budget, i int, n int64) (excess int64) {
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

// blockPtr is an atomic pointer to a block whose Load may be called in a
// section: it uses the sync/atomic function, not atomic.Pointer's method,
// which is an ordinary call when not inlined (-gcflags=-l).
type blockPtr[T any] struct{ p unsafe.Pointer }

//go:nosplit
func (b *blockPtr[T]) Load() *block[T] { return (*block[T])(atomic.LoadPointer(&b.p)) }

func (b *blockPtr[T]) Store(v *block[T]) { atomic.StorePointer(&b.p, unsafe.Pointer(v)) }

func (b *blockPtr[T]) Swap(v *block[T]) *block[T] {
	return (*block[T])(atomic.SwapPointer(&b.p, unsafe.Pointer(v)))
}

// shard is one slot's part of a pool. The owner part and the shared part are
// each padded to a multiple of 128 bytes (two cache lines, against the
// adjacent-line prefetcher) so that slots stealing from the shared part do
// not slow down the owner.
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
	// local is the slot's current block. The owner loads it (load-acquire)
	// and uses it in a section; the trimmer replaces it (store-release)
	// with an empty block and never touches the old one within the same GC
	// cycle.
	local blockPtr[T]
	// victim is the previous cycle's local block, or nil. Same protocol.
	victim blockPtr[T]

	// gets and puts count calls made on this slot; written only in its
	// sections.
	gets, puts counter
}

type shardShared[T any] struct {
	mu sync.Mutex
	// dead is set, under mu, when the state holding this shard has been
	// replaced after the slots grew: its lists were moved to the new state
	// and nothing may be added to them.
	dead bool
	// shared holds objects spilled from local blocks; old holds those that
	// were in shared at the last trim. Any goroutine may pop from them
	// under mu.
	shared []T
	old    oldList[T]
}

// state is the engine of one Pool for a number of slots.
type state[T any] struct {
	shards []shard[T] // one per slot; immutable

	c *core[T] // survives replacement of the state

	nilable     bool // T's first word is a pointer whose nil means "nil value"
	hasIdentity bool // T's first word identifies the object (debug checks)
	isSlice     bool
	limit       int       // capacity of each block, 0 <= limit <= blockCap
	disabled    *block[T] // the one block of every shard when limit == 0; always empty

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
	harvest bool // retire swapped-out blocks and read them after a grace period (MinIdle > 0 or a budget)

	// held counts the objects in shared lists, the reserve and retired
	// blocks: everything idle except what sits in installed blocks.
	// Spills reserve room in it with a CAS loop bounded by sharedCap.
	held      atomic.Int64
	sharedCap atomic.Int64 // bound on held for spills; -1: unbounded

	// gets and puts count the calls not counted on a shard.
	gets, misses, drops, evicted, puts atomic.Uint64

	// old holds the shards of states replaced after the slots grew: a
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
// loaded the block before the swap may still be using it in a section; once
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
	// One shard per slot assigned so far, and at least GOMAXPROCS: each
	// state replacement releases the objects in the old blocks.
	st := newState(c, min(max(slots.len(), runtime.GOMAXPROCS(0)), maxSlots))
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
	var zero T
	if unsafe.Sizeof(zero) > maxFastSize {
		st.limit = 0 // no fast path: only the shared lists
	}
	c.sharedCap.Store(-1)
	if c.maxIdle > 0 {
		blocks := 2 * n
		if c.harvest {
			blocks = 4 * n
		}
		st.limit = min(st.limit, c.maxIdle/blocks)
		c.sharedCap.Store(int64(c.maxIdle - blocks*st.limit))
	}
	if st.limit == 0 {
		st.disabled = new(block[T])
	}
	for i := range st.shards {
		st.shards[i].local.Store(st.newBlock())
	}
	return st
}

// newBlock returns an empty block for a shard: st.disabled, shared by all
// shards, when blocks are disabled (it stays empty: push refuses every
// object), or a new block.
func (st *state[T]) newBlock() *block[T] {
	if st.limit == 0 {
		return st.disabled
	}
	return &block[T]{limit: st.limit}
}

// getSlow is Get's slow path, outside any section: the caller's slot had
// nothing (counted: the Get was counted on its shard), or the caller has no
// slot in st, or T is too large for the fast path.
func (p *Pool[T]) getSlow(st *state[T], counted bool) T {
	c := st.c
	if !counted {
		c.gets.Add(1)
		st = p.ensureSlot(st)
	}
	if c.held.Load() > 0 {
		x, ok := st.takeShared(st.hint())
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

// ensureSlot gives the calling thread a slot if it can, and returns a state
// with a shard for every slot assigned so far.
func (p *Pool[T]) ensureSlot(st *state[T]) *state[T] {
	if n := slots.register(); n > len(st.shards) {
		// Grow by a quarter at least, so that threads arriving one by
		// one replace the state (and release its blocks) rarely.
		return p.grow(min(max(n, len(st.shards)+len(st.shards)/4+1), maxSlots))
	}
	return st
}

// hint returns the shard whose shared list a caller outside a section should
// use first: its slot's, if it has one (it may have moved to another thread
// since; the choice only spreads the lists' lock traffic).
func (st *state[T]) hint() int {
	if i := slots.of(runtimex.M()); uint(i) < uint(len(st.shards)) {
		return i
	}
	return 0
}

// handOut runs the debug bookkeeping, when debug mode is on, for x about to
// be returned by Get.
func (p *Pool[T]) handOut(st *state[T], x T, hit bool) T {
	if pooldebug.On.Load() {
		p.debugGet(st, &x, hit)
	}
	return x
}

// takeShared pops an object from the shared lists, shard first's, then the
// others' (stealing).
func (st *state[T]) takeShared(first int) (T, bool) {
	n := len(st.shards)
	for i := range n {
		s := &st.shards[(first+i)%n]
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

// putSlow is Put's slow path, outside any section, for an x accepted by
// Reset and Keep and not yet counted: the caller has no slot in st, or T is
// too large for the fast path. x goes to a shared list.
func (p *Pool[T]) putSlow(st *state[T], x T) {
	st.c.puts.Add(1)
	var zero T
	if unsafe.Sizeof(zero) <= maxFastSize {
		st = p.ensureSlot(st)
	}
	if st.bg != nil && !st.bg.Reserve(st.weight) {
		st.c.budgetDrop(st, x)
		return
	}
	st.spill(st.hint(), []T{x})
}

// putRefill is Put's slow path when the slot's budget credit was short:
// it refills from the budget's free bytes, or drops x if there are none.
func (p *Pool[T]) putRefill(st *state[T], x T) {
	got := st.bg.Refill(st.weight)
	if got == 0 {
		st.c.budgetDrop(st, x)
		return
	}
	p.putFull(st, x, got-st.weight)
}

// putFull caches x, whose Put is counted and whose budget is reserved, when
// the slot's local block was full (or after a refill, with extra bytes of
// credit for the slot): in a section it moves the older half of the block
// and x's place in line to out, keeping the newest objects local, then it
// spills out to the shared list.
func (p *Pool[T]) putFull(st *state[T], x T, extra int64) {
	var out [blockCap/2 + 1]T
	k, i, excess := st.moveHalf(&out, x, extra)
	if excess > 0 {
		st.bg.Release(excess)
	}
	if i < 0 {
		// No slot in st any more (a state replaced under us): x goes
		// to a shared list.
		i, out[0], k = st.hint(), x, 1
	}
	st.spill(i, out[:k])
	clear(out[:k])
}

// moveHalf is putFull's section. It returns how many objects it moved to
// out, the slot (-1 if the caller has none in st) and the credit the slot
// could not keep.
//
//go:nosplit
func (st *state[T]) moveHalf(out *[blockCap/2 + 1]T, x T, extra int64) (k, slot int, excess int64) {
	sectionEnter()
	m := runtimex.M()
	i := slots.first(m)
	if i < 0 {
		i = slots.probe(m)
	}
	if uint(i) >= uint(len(st.shards)) {
		sectionExit()
		return 0, -1, extra
	}
	if extra > 0 {
		excess = giveCredit(st.bg, i, extra)
	}
	b := st.shards[i].local.Load()
	if b.push(&x) {
		sectionExit()
		return 0, i, excess
	}
	raceLock(&b.rl)
	k = b.n / 2
	for j := 0; j < k; j++ {
		out[j] = b.items[j]
	}
	for j := k; j < b.n; j++ {
		b.items[j-k] = b.items[j]
	}
	var zero T
	for j := b.n - k; j < b.n; j++ {
		b.items[j] = zero
	}
	b.n -= k
	if b.n < b.limit {
		b.items[b.n] = x
		b.n++
	} else {
		out[k] = x // limit 0: blocks are disabled
		k++
	}
	raceUnlock(&b.rl)
	sectionExit()
	return k, i, excess
}

// spill appends objs (oldest first) to shard i's shared list, dropping the
// oldest of them if the pool is at MaxIdle.
func (st *state[T]) spill(i int, objs []T) {
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
	s := &st.shards[i]
	s.mu.Lock()
	if s.dead {
		// The slots grew and this state was replaced after we loaded it.
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

// grow replaces the state with one that has n shards, one for every slot
// assigned so far. Objects in the old shared lists move to the new state;
// objects in the old blocks are released like trimmed ones.
func (p *Pool[T]) grow(n int) *state[T] {
	old := p.st.Load()
	c := old.c
	c.trimMu.Lock()
	defer c.trimMu.Unlock()
	old = p.st.Load()
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
	disabled := new(block[T])
	for i := range old.shards {
		s := &old.shards[i]
		// A goroutine that loaded the old state may still use s.local in
		// a section: give it an empty, disabled block, whose Puts spill to
		// the (dead) shared list and are redirected to the new state.
		released += c.retire(s.local.Swap(disabled))
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
	s.Gets = c.gets.Load()
	idle := c.held.Load()
	for i := range st.shards {
		sh := &st.shards[i]
		s.Gets += sh.gets.load()
		s.Puts += sh.puts.load()
		idle += int64(sh.local.Load().len() + sh.victim.Load().len())
	}
	if o := c.old.Load(); o != nil {
		for _, shards := range *o {
			if &shards[0] == &st.shards[0] {
				// grow stores the replaced state's shards in old before
				// it replaces the state: st may be that state, already
				// counted above.
				continue
			}
			for i := range shards {
				s.Gets += shards[i].gets.load()
				s.Puts += shards[i].puts.load()
			}
		}
	}
	s.Idle = int(max(idle, 0))
	return s
}
