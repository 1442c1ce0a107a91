package bytepool

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/internal/budget"
	"github.com/poolkit/pool/internal/pooldebug"
	"github.com/poolkit/pool/internal/poolhooks"
	"github.com/poolkit/pool/internal/sizeclass"
)

// Defaults for the zero fields of a Pool.
const (
	DefaultMaxSize  = 1 << 20  // 1 MiB
	DefaultMaxBytes = 64 << 20 // 64 MiB
)

// A Pool is a set of idle byte slices sorted into size classes, with a budget
// on the bytes it holds. Get(n) hands out a slice from the class that fits n,
// or allocates one; Put(b) files b under the class of its capacity. Buffers
// taken with GetBuffer draw their storage from the Pool.
//
// When not to use it: for slices whose size is known at compile time and that
// do not escape (use an array), for long-lived slices, and for one fixed size
// where a pool.Pool[[]byte] does the same with less bookkeeping.
//
// The zero value is a pool ready to use with DefaultMaxSize and
// DefaultMaxBytes. The exported fields must be set before the first use and
// not changed afterwards. A Pool is safe for concurrent use by multiple
// goroutines and must not be copied after first use.
//
// In the terminology of the Go memory model, a call to Put(b) “synchronizes
// before” a call to Get returning b's memory.
type Pool struct {
	// MaxSize is the largest capacity pooled: Gets of more bytes allocate
	// exactly what they ask for, and Puts of larger slices drop them so
	// that a rare huge buffer is never kept (golang/go#23199). It is
	// rounded down to a size class (see internal/sizeclass). 0 means
	// DefaultMaxSize; values above 1 GiB mean 1 GiB; negative values and
	// values below 16 (the smallest class) pool nothing.
	MaxSize int

	// MaxBytes is the budget of idle bytes held over all classes (slices
	// and Buffers' storage), counted at class size. The idle bytes never
	// exceed it; Puts that would take them above it are dropped
	// (Stats.Drops.Budget). So that Get and Put need no shared atomic,
	// each P (GOMAXPROCS) that uses the pool holds a share of the unused
	// budget (at most 2 MiB and MaxBytes/(4*GOMAXPROCS) per P) that other
	// Ps cannot use: a Put may be dropped while the idle bytes are up to
	// that much per P below MaxBytes.
	// 0 means DefaultMaxBytes; a negative value keeps nothing.
	//
	// Under memory pressure (the heap goal at 90% or more of the memory
	// limit, see package pool) the budget shrinks to MaxBytes/8: GC
	// trimming releases every idle slice, and Ps stop refilling their
	// share once the idle bytes plus the shares reach MaxBytes/8, so the
	// idle bytes stay under MaxBytes/8 plus the Ps' shares (as above).
	// The full budget returns when the pressure ends. Only the slow path
	// that refills a P's share looks at the pressure.
	MaxBytes int64

	// st is the pool's state, created on first use. Read with load-acquire
	// on every call; never changed once set.
	st atomic.Pointer[state]
	mu sync.Mutex // serializes the creation of st
	_  noCopy
}

// noCopy lets go vet's copylocks check report copies of a Pool.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// state is a Pool's configuration and storage, fixed at first use.
type state struct {
	pool     *Pool // the Pool whose state this is
	maxSize  int   // size of the largest pooled class; -1 if none is pooled
	getEnd   uint  // maxSize+1: Get(n) takes a class iff uint(n) < getEnd
	putSpan  uint  // maxSize-MinSize+1 (0 if no class): Put files cap c iff uint(c-MinSize) < putSpan
	maxBytes int64
	classes  []class // classes 0 .. Floor(maxSize)

	budget budget.Budget

	// Counters for what happens outside any class (slow paths only).
	oversizeGets atomic.Uint64 // Gets of more than maxSize bytes
	dropTooLarge atomic.Uint64 // Puts with capacity above maxSize
	dropTooSmall atomic.Uint64 // Puts with capacity below sizeclass.MinSize
	dropSubslice atomic.Uint64 // Puts refused in debug mode as sub-slices (debug.go)

	spare pool.Pool[*Buffer] // idle Buffers without storage
	learn learner            // start class of new Buffers

	poisoned poisonSet // POOLDEBUG=poison=1 bookkeeping (debug.go)
}

// class is one size class: an engine pool of slices of exactly size bytes
// of capacity, and one of idle Buffers holding such a slice.
//
// Both pools count against the budget through the engine
// (poolhooks.SetBudget): the engine reserves size bytes for every object
// on the fast path that caches it, from its P's credit, so the budget
// costs no atomic there, and gives them back on a Get hit or when trimming
// releases the object. That is exact because every object in either pool
// holds exactly size bytes.
type class struct {
	p    pool.Pool[[]byte]  // New is nil: a miss returns a nil slice
	size int                // on p's cache line: Get and Put read both
	bufs pool.Pool[*Buffer] // Buffers with cap(buf) == size; New is nil

	budgetDrops    atomic.Uint64 // Puts to p refused for the budget
	bufBudgetDrops atomic.Uint64 // Puts to bufs refused for the budget
	_              [classBytes - 2*enginePoolBytes - 24]byte
}

// classBytes is the size of a class: two cache lines, so that the classes
// are indexed with a shift and Get and Put of slices touch one line of
// them. The padding's array length fails to compile if a class outgrows it.
const (
	classBytes      = 128
	enginePoolBytes = unsafe.Sizeof(pool.Pool[[]byte]{})
)

// defaultPool serves the package-level functions.
var defaultPool Pool

func (p *Pool) state() *state {
	if s := p.st.Load(); s != nil {
		return s
	}
	return p.init()
}

// init creates p's state once (slow path).
func (p *Pool) init() *state {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.st.Load(); s != nil {
		return s
	}
	s := &state{pool: p}
	maxSize := p.MaxSize
	switch {
	case maxSize == 0:
		maxSize = DefaultMaxSize
	case maxSize > sizeclass.MaxSize:
		maxSize = sizeclass.MaxSize
	}
	s.maxBytes = p.MaxBytes
	switch {
	case s.maxBytes == 0:
		s.maxBytes = DefaultMaxBytes
	case s.maxBytes < 0:
		s.maxBytes = 0
	}
	s.budget.Init(s.maxBytes)
	s.budget.ShrinkUnderPressure(poolhooks.UnderPressure)
	s.maxSize = -1
	if top := sizeclass.Floor(maxSize); top >= 0 {
		s.maxSize = sizeclass.Size(top)
		s.classes = make([]class, top+1)
		s.putSpan = uint(s.maxSize - sizeclass.MinSize + 1)
	}
	s.getEnd = uint(s.maxSize + 1)
	for i := range s.classes {
		c := &s.classes[i]
		c.size = sizeclass.Size(i)
		size := int64(c.size)
		poolhooks.SetBudget(&c.p, &s.budget, size, &c.budgetDrops)
		poolhooks.SetBudget(&c.bufs, &s.budget, size, &c.bufBudgetDrops)
	}
	s.spare.New = func() *Buffer {
		return &Buffer{s: s, pooled: true} // sample 0: teach draws its phase at the current period
	}
	if len(s.classes) > 0 {
		s.learn.start.Store(&s.classes[min(sizeclass.Ceil(minStart), len(s.classes)-1)])
	}
	p.st.Store(s)
	return s
}

// Get returns a slice of length n from the default pool. Its capacity is n
// rounded up to a size class (or exactly n above DefaultMaxSize). The
// contents are not zeroed: they may hold data of an earlier user. The slice
// belongs to the caller until it passes it (or a slice of it) to Put.
//
// Get panics with "bytepool: negative size" if n < 0.
func Get(n int) []byte { return defaultPool.Get(n) }

// Put returns b to the default pool; see Pool.Put.
func Put(b []byte) { defaultPool.Put(b) }

// Zeroed is like Get, with the first n bytes cleared (the capacity beyond
// them is not).
//
// Zeroed panics with "bytepool: negative size" if n < 0.
func Zeroed(n int) []byte { return defaultPool.Zeroed(n) }

// Get returns a slice of length n. Its capacity is n rounded up to a size
// class, or exactly n if n > MaxSize (then it is allocated, not pooled). The
// contents are not zeroed: they may hold data of an earlier user. The slice
// belongs to the caller until it passes it (or a slice of it) to Put.
//
// Get panics with "bytepool: negative size" if n < 0.
func (p *Pool) Get(n int) []byte {
	// Fast path, in this one function (the package-level Get inlines
	// to a call of it): the state, the class, one engine Get.
	s := p.st.Load()
	if s == nil {
		s = p.init()
	}
	if uint(n) >= s.getEnd {
		return s.getLarge(n) // n < 0 or n > maxSize
	}
	c := &s.classes[ceilClass(n)]
	if b := c.p.Get(); b != nil {
		if pooldebug.On.Load() {
			return s.debugGet(c, b, n)
		}
		return b[:n]
	}
	return make([]byte, n, c.size)
}

// ceilClass is sizeclass.Ceil for n in [0, sizeclass.MaxSize], without
// branches: the class after the largest class <= n-1, where n-1 is raised
// to 15 (class -1) for n <= 16.
func ceilClass(n int) int {
	m := uint(max(n-1, sizeclass.MinSize-1))
	k := bits.Len(m) - 1
	return (k-4)<<2 | int(m>>((k-2)&63))&3 + 1 // k >= 3: the mask only drops the shift check
}

// floorClass is sizeclass.Floor for n in [sizeclass.MinSize,
// sizeclass.MaxSize], without branches.
func floorClass(n int) int {
	k := bits.Len(uint(n)) - 1
	return (k-4)<<2 | n>>((k-2)&63)&3 // k >= 4: the mask only drops the shift check
}

// debugGet is Get's debug path for b, a hit in class c: it checks b's
// poison and returns b[:n], or a new slice if b was modified after Put.
func (s *state) debugGet(c *class, b []byte, n int) []byte {
	if !s.checkPoison(b[:c.size], "bytepool.Get", "[]byte") {
		return make([]byte, n, c.size) // modified after Put: drop it
	}
	return b[:n]
}

// getLarge serves Gets that no class can: slow path.
//
//go:noinline
func (s *state) getLarge(n int) []byte {
	if n < 0 {
		panic("bytepool: negative size")
	}
	s.oversizeGets.Add(1)
	return make([]byte, n)
}

// Zeroed is like Get, with the first n bytes cleared (the capacity beyond
// them is not).
//
// Zeroed panics with "bytepool: negative size" if n < 0.
func (p *Pool) Zeroed(n int) []byte {
	b := p.Get(n)
	clear(b)
	return b
}

// Put files b under the largest size class not above cap(b), to be handed out
// by a later Get. Put ignores nil and zero-capacity slices, and drops b
// (counting why in Stats) if its capacity is above MaxSize or below the
// smallest class, or if keeping it would take the idle bytes above MaxBytes.
// Only the first class-size bytes of a capacity between two classes are
// handed out again.
//
// Put keeps the slice it is given, and with it the whole allocation b
// points into, while counting only the class size against MaxBytes: Put
// the slice that Get returned (or a slice of it that starts at the same
// place, such as b[:0]), not a sub-slice that starts further on, such as
// the tail b[len(b)-100:] of a large buffer, which would keep the whole
// buffer alive as a 96-byte slice. In debug mode (any POOLDEBUG setting)
// Put reports and drops a slice whose address proves that it does not
// start its allocation (see debug.go for what that detects and what it
// cannot).
//
// After Put(b) the caller must not use b, or any slice that shares its
// memory, again: it may already belong to another goroutine.
func (p *Pool) Put(b []byte) {
	n := cap(b)
	if n == 0 {
		return
	}
	s := p.st.Load()
	if s == nil {
		s = p.init()
	}
	// Fast path: n in [MinSize, maxSize] in one unsigned comparison.
	if uint(n-sizeclass.MinSize) >= s.putSpan {
		s.putOutside(n)
		return
	}
	c := &s.classes[floorClass(n)]
	if pooldebug.On.Load() && !s.debugPut(b, c) {
		return
	}
	c.p.Put(b[:0:c.size])
}

// putOutside counts a Put whose capacity n no class holds: slow path.
//
//go:noinline
func (s *state) putOutside(n int) {
	if n > s.maxSize {
		s.dropTooLarge.Add(1)
	} else {
		s.dropTooSmall.Add(1)
	}
}
