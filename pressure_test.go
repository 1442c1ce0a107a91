package pool_test

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/poolkit/pool"
)

// TestMemoryPressure checks that near the memory limit a pool ignores
// MinIdle and releases what it holds, and that retention resumes when the
// pressure ends.
func TestMemoryPressure(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	const N = 100
	p := pool.Pool[*[64 << 10]byte]{MinIdle: N}
	gc := func(n int) {
		for range n {
			if !pool.GCAndTrim() {
				t.Fatal("trimmer did not run")
			}
		}
	}
	// fill returns Idle once the trimming of any GC cycle that the Puts'
	// allocations started is over: Stats is exact only then (a block the
	// trimmer has swapped out but not yet accounted is invisible to it).
	fill := func() int {
		for range N {
			p.Put(new([64 << 10]byte))
		}
		gc(1)
		return p.Stats().Idle
	}
	kept := fill()
	gc(3)
	if s := p.Stats(); s.Idle != kept {
		t.Fatalf("without pressure after 3 GC cycles: Idle = %d; want MinIdle to keep %d", s.Idle, kept)
	}

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(int64(ms.HeapAlloc)) // the heap goal is now at the limit
	gc(3)
	if s := p.Stats(); s.Idle != 0 || s.Evicted < uint64(kept) {
		t.Fatalf("under memory pressure: Stats() = %+v; want Idle 0 and %d evicted", s, kept)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	gc(1)
	kept = fill()
	gc(4)
	if s := p.Stats(); s.Idle != kept {
		t.Fatalf("after the pressure ended: Idle = %d; want MinIdle retention of %d again", s.Idle, kept)
	}
}
