package pool

import (
	"sync/atomic"

	"github.com/poolkit/pool/internal/runtimex"
)

// Slots: exclusive per-thread data without pinning.
//
// A goroutine running a //go:nosplit function cannot be preempted there:
// the compiler marks every instruction of a nosplit function as an unsafe
// point for asynchronous preemption (cmd/compile/internal/liveness.IsUnsafe),
// and synchronous preemption happens only in function prologues, which
// nosplit functions do not have. So from the start of a nosplit function to
// its first call of a function that has a prologue, the goroutine keeps its
// thread (M), no other goroutine runs on that M, and no stop-the-world phase
// can begin — what ProcPin gives, without the two calls and the counter
// update of ProcPin and ProcUnpin. Such a stretch of code is a section.
//
// slots.of maps the current M to a small dense index, its slot, so that
// pools can keep per-slot data that only the goroutine in a section on that
// M touches. The M is found by its address (runtimex.M) in a hash table
// that is only ever added to: an M keeps its slot for its life, and an M
// created later at the address of one that exited inherits it, which is
// harmless since the old M runs no code any more.
//
// An M looks for its entry in slotProbes consecutive entries from its hash;
// one that finds them all taken by other Ms, or that comes after maxSlots
// others, has no slot: slots.of returns -1 and the pools send it down their
// locked paths.

// maxSlots bounds the number of slots.
const maxSlots = runtimex.MaxSlots

const (
	slotTableBits = 10 // 1024 entries, 4 per slot at most
	slotProbes    = 4  // entries an M may take, from its hash on
)

// slotEntry maps one M to its slot.
type slotEntry struct {
	// m is the address of the M owning the entry, 0 while free. It goes
	// from 0 to an M once (CAS) and never changes again.
	m uintptr
	// slot is the M's slot plus one; 0 until assigned, then immutable
	// (and 0 forever if the M came after maxSlots others).
	slot int32
}

// slotTable maps Ms to slots.
type slotTable struct {
	entries [1 << slotTableBits]slotEntry
	n       atomic.Int32 // slots assigned (may exceed maxSlots: those are unused)
}

// slots is the process's slot table, shared by all pools.
var slots slotTable

// hash returns the first entry m may take.
//
//go:nosplit
func hash(m uintptr) uint {
	// Fibonacci hashing: the multiply mixes the address bits into the top
	// bits; computed in 64 bits on every platform.
	return uint((uint64(m) * 0x9E3779B97F4A7C15) >> (64 - slotTableBits))
}

// Code in a section may call only //go:nosplit functions, inlined code and
// sync/atomic functions (intrinsics or assembly without a prologue; not the
// methods of the atomic types, which are ordinary calls when not inlined, as
// with -gcflags=-l). Under the race detector those are calls into the
// detector, so there sectionEnter pins the goroutine instead.
//
// The section code of Get and Put calls nothing outside this package but
// runtimex.M: where Pool[T] is instantiated in another package, the
// compiler does not inline the functions of internal/runtimex and
// internal/budget into Pool's methods there (it does inline this package's),
// so the race locks, the budget credit and the slot lookup that sections use
// are all defined here (found with go tool objdump on a user module).

// of returns the slot of the M at address m (runtimex.M), in [0,
// slots.len()), or -1 if the M has none (register gives it one when it
// can). The result identifies data that the caller owns exclusively only
// while it stays in the section it called runtimex.M from.
//
// of looks only at the first entry of m's probe sequence, which is where
// almost every M is, and calls probe for the others: the check stays
// within the inlining budget, a call would not.
//
//go:nosplit
func (t *slotTable) of(m uintptr) int {
	if e := &t.entries[hash(m)]; loadUintptr(&e.m) == m {
		return int(loadInt32(&e.slot)) - 1
	}
	return t.probe(m)
}

// first is of's inlinable half: the slot of the M at address m if its
// first entry holds it, else -1, after which the caller calls probe.
//
//go:nosplit
func (t *slotTable) first(m uintptr) int {
	if e := &t.entries[hash(m)]; loadUintptr(&e.m) == m {
		return int(loadInt32(&e.slot)) - 1
	}
	return -1
}

// probe is of for an M whose first entry belongs to another M (or to
// none): it looks at the rest of the M's probe sequence. Nosplit, so that
// a section may call it.
//
//go:nosplit
func (t *slotTable) probe(m uintptr) int {
	h := hash(m)
	for i := uint(1); i < slotProbes; i++ {
		e := &t.entries[(h+i)%uint(len(t.entries))]
		switch loadUintptr(&e.m) {
		case m:
			return int(loadInt32(&e.slot)) - 1
		case 0:
			return -1 // entries are taken in probe order: m has none
		}
	}
	return -1
}

// register gives the M running the caller a slot if it has none and one is
// available, and returns the number of slots assigned so far (at most
// maxSlots). The caller may be moved to another M at any time, so the
// slot is for whichever M ran the registration; slots.of tells which one the
// caller has in its next section.
func (t *slotTable) register() int {
	t.registerM(runtimex.M())
	return t.len()
}

// registerM gives the M at address m a slot in the first free entry of its
// probe sequence, unless it has one already or the sequence is full.
func (t *slotTable) registerM(m uintptr) {
	h := hash(m)
	for i := range uint(slotProbes) {
		e := &t.entries[(h+i)%uint(len(t.entries))]
		old := atomic.LoadUintptr(&e.m)
		if old == 0 && atomic.CompareAndSwapUintptr(&e.m, 0, m) {
			if s := t.n.Add(1); s <= maxSlots {
				atomic.StoreInt32(&e.slot, s)
			}
			return
		}
		if atomic.LoadUintptr(&e.m) == m {
			return // registered already (or by a concurrent call for m)
		}
	}
}

// len returns the number of slots assigned so far: every slot that slots.of
// returns is below it.
func (t *slotTable) len() int {
	return int(min(t.n.Load(), maxSlots))
}
