package pool

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/poolkit/pool/internal/runtimex"
)

func TestSlot(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for range 1000 {
				n := slots.register()
				if n < 1 || n > maxSlots {
					t.Errorf("slots.register() = %d; want in [1, %d]", n, maxSlots)
					return
				}
				if s := slots.of(runtimex.M()); s < -1 || s >= slots.len() {
					t.Errorf("slots.of(runtimex.M()) = %d; want in [-1, %d)", s, slots.len())
					return
				}
			}
		})
	}
	wg.Wait()
	// Pinned, the goroutine keeps its M: registering it gives it a slot
	// (its table entry is free or its own, unless another M took it).
	runtimex.ProcPin()
	slots.register()
	s1, s2 := slots.of(runtimex.M()), slots.of(runtimex.M())
	runtimex.ProcUnpin()
	if s1 != s2 {
		t.Fatalf("slots.of(runtimex.M()) changed while pinned: %d then %d", s1, s2)
	}
}

// TestSlotExclusive checks that two goroutines never hold the same slot at
// once: each claims its slot's flag inside a nosplit section and frees it
// before leaving it.
func TestSlotExclusive(t *testing.T) {
	var flags [maxSlots]int32
	var wg sync.WaitGroup
	var bad atomic.Int64
	stop := make(chan struct{})
	go ForceGC(stop)
	for range 8 {
		wg.Go(func() {
			slots.register()
			for i := range 200000 {
				if !claim(&flags) {
					bad.Add(1)
				}
				if i%64 == 0 {
					slots.register()
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	if n := bad.Load(); n != 0 {
		t.Fatalf("%d sections found their slot taken", n)
	}
}

// claim takes and releases the flag of the caller's slot within one section,
// checking it a few times in between so that a preemption there would show.
// Like any section it calls only sync/atomic functions and nosplit code.
//
//go:nosplit
func claim(flags *[maxSlots]int32) bool {
	sectionEnter()
	s := slots.of(runtimex.M())
	ok := true
	if s >= 0 {
		f := &flags[s]
		ok = atomic.CompareAndSwapInt32(f, 0, 1)
		for i := 0; ok && i < 100; i++ {
			ok = atomic.LoadInt32(f) == 1
		}
		atomic.StoreInt32(f, 0)
	}
	sectionExit()
	return ok
}

// TestSlotCollisions registers Ms whose addresses hash to the same entry:
// each of the first slotProbes takes its own entry and slot, the next one
// gets none, and an M hashing to a taken entry's neighbor probes past it.
func TestSlotCollisions(t *testing.T) {
	var tab slotTable
	const target = 77
	var ms []uintptr
	for m := uintptr(8); len(ms) < slotProbes+1; m += 8 {
		if hash(m) == target {
			ms = append(ms, m)
		}
	}
	seen := map[int]bool{}
	for i, m := range ms {
		tab.registerM(m)
		tab.registerM(m) // registering twice changes nothing
		s := tab.of(m)
		if i < slotProbes {
			if s < 0 || seen[s] {
				t.Fatalf("M %d of %d with one hash: slot %d (seen %v); want a new slot", i+1, len(ms), s, seen)
			}
			seen[s] = true
		} else if s != -1 {
			t.Fatalf("M %d with one hash beyond %d probes: slot %d; want -1", i+1, slotProbes, s)
		}
	}
	if got := tab.len(); got != slotProbes {
		t.Fatalf("len() = %d; want %d", got, slotProbes)
	}
	var other uintptr // an M whose first entry is the second one taken above
	for m := uintptr(8); other == 0; m += 8 {
		if hash(m) == target+1 {
			other = m
		}
	}
	if s := tab.of(other); s != -1 {
		t.Fatalf("unregistered M: slot %d; want -1", s)
	}
	tab.registerM(other)
	if s := tab.of(other); s < 0 || seen[s] {
		t.Fatalf("M probing past taken entries: slot %d; want a new slot", s)
	}
}
