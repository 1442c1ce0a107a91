package bytepool

import (
	"sync/atomic"

	"github.com/poolkit/pool"
)

// Stats is a snapshot of a Pool's counters. Like pool.Stats, the counters are
// exact once the pool is quiescent and may lag by the operations in flight
// while it is in use.
type Stats struct {
	Gets      uint64 // calls to Get and Zeroed, and storage Buffers took from the classes
	Misses    uint64 // Gets that allocated: their class was empty, or n > MaxSize
	Puts      uint64 // calls to Put with a non-zero capacity, and storage Buffers gave back
	Drops     Drops  // Puts that did not cache their slice, by reason
	Evicted   uint64 // idle slices released by GC trimming
	Idle      int    // idle slices held
	IdleBytes int64  // bytes held by idle slices and idle Buffers, counted at class size; <= MaxBytes

	// Buffers counts the Buffers that GetBuffer and Free passed through
	// the pool with their storage attached; their storage is not in the
	// slice counters above.
	Buffers BufferStats

	// Classes has one entry per size class up to MaxSize, smallest first.
	// The per-class Drops count only the reasons Budget and Random; Gets
	// of more than MaxSize, Puts of sizes no class holds and sub-slices
	// refused in debug mode count only in the totals.
	Classes []ClassStats
}

// Drops counts Puts that were dropped instead of cached, by reason.
type Drops struct {
	Budget   uint64 // caching the slice would have taken the idle bytes above MaxBytes
	TooLarge uint64 // capacity above MaxSize (huge buffers are never kept: golang/go#23199)
	TooSmall uint64 // capacity below the smallest class (16 bytes)
	Random   uint64 // dropped at random by the engine under the race detector
	Subslice uint64 // debug mode only: the slice does not start where its allocation starts (see Pool.Put)
}

// Total returns the number of drops for all reasons.
func (d Drops) Total() uint64 { return d.Budget + d.TooLarge + d.TooSmall + d.Random + d.Subslice }

func (d *Drops) add(e Drops) {
	d.Budget += e.Budget
	d.TooLarge += e.TooLarge
	d.TooSmall += e.TooSmall
	d.Random += e.Random
	d.Subslice += e.Subslice
}

// BufferStats counts the idle Buffers that keep their storage (those whose
// storage has the capacity new Buffers start with).
type BufferStats struct {
	Gets    uint64 // GetBuffer calls that looked for such a Buffer
	Misses  uint64 // of those, the ones that found none and took storage with a Get
	Frees   uint64 // Frees that offered a Buffer with its storage to the pool
	Drops   Drops  // of those, the ones dropped (Budget and Random only)
	Evicted uint64 // idle Buffers released by GC trimming
	Idle    int    // idle Buffers holding storage
}

func (b *BufferStats) add(e BufferStats) {
	b.Gets += e.Gets
	b.Misses += e.Misses
	b.Frees += e.Frees
	b.Drops.add(e.Drops)
	b.Evicted += e.Evicted
	b.Idle += e.Idle
}

// ClassStats are the counters of one size class.
type ClassStats struct {
	Size      int    // capacity of the slices of this class
	Gets      uint64 // Gets served from this class
	Misses    uint64 // of those, the ones that allocated
	Puts      uint64 // Puts filed under this class
	Drops     Drops  // of those, the ones dropped (Budget and Random only)
	Evicted   uint64 // idle slices released by GC trimming
	Idle      int    // idle slices held
	IdleBytes int64  // (Idle + Buffers.Idle) * Size

	Buffers BufferStats // idle Buffers holding storage of this class
}

// Stats returns the pool's counters, in total and per class. It costs
// O(classes × Ps that used the pool) and allocates the Classes slice.
func (p *Pool) Stats() Stats {
	s := p.state()
	oversize := s.oversizeGets.Load()
	st := Stats{
		Gets:    oversize,
		Misses:  oversize,
		Puts:    s.dropTooLarge.Load() + s.dropTooSmall.Load() + s.dropSubslice.Load(),
		Drops:   Drops{TooLarge: s.dropTooLarge.Load(), TooSmall: s.dropTooSmall.Load(), Subslice: s.dropSubslice.Load()},
		Classes: make([]ClassStats, len(s.classes)),
	}
	// Totals are summed from the same snapshot of each class, so that they
	// agree with Classes even while the pool is in use.
	for i := range s.classes {
		c := &s.classes[i]
		e, eb := c.p.Stats(), c.bufs.Stats()
		puts, drops := split(e, &c.budgetDrops)
		bufPuts, bufDrops := split(eb, &c.bufBudgetDrops)
		cs := ClassStats{
			Size:      c.size,
			Gets:      e.Gets,
			Misses:    e.Misses,
			Puts:      puts,
			Drops:     drops,
			Evicted:   e.Evicted,
			Idle:      e.Idle,
			IdleBytes: int64(e.Idle+eb.Idle) * int64(c.size),
			Buffers: BufferStats{
				Gets:    eb.Gets,
				Misses:  eb.Misses,
				Frees:   bufPuts,
				Drops:   bufDrops,
				Evicted: eb.Evicted,
				Idle:    eb.Idle,
			},
		}
		st.Classes[i] = cs
		st.Gets += cs.Gets
		st.Misses += cs.Misses
		st.Puts += cs.Puts
		st.Drops.add(cs.Drops)
		st.Evicted += cs.Evicted
		st.Idle += cs.Idle
		st.IdleBytes += cs.IdleBytes
		st.Buffers.add(cs.Buffers)
	}
	return st
}

// split returns the Puts and Drops of one of a class's engine pools, whose
// budget drops are counted in budget.
func split(e pool.Stats, budget *atomic.Uint64) (puts uint64, d Drops) {
	// The engine counted budget refusals as Puts and Drops too, and
	// counts them first: clamp so that Random cannot wrap around.
	b := min(budget.Load(), e.Drops)
	return e.Puts, Drops{Budget: b, Random: e.Drops - b}
}
