package bytepool_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/poolkit/pool/bytepool"
	"github.com/poolkit/pool/internal/sizeclass"
)

// noGC disables the garbage collector for the rest of the test, so that GC
// trimming cannot empty pools that a test inspects.
func noGC(t testing.TB) {
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}

// oneP runs the rest of the test with GOMAXPROCS 1, so that the budget's
// per-P credit cannot be left on another P and the counts are exact.
func oneP(t testing.TB) {
	old := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// base returns the address of the first byte of b's backing array.
func base(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

// wantPanic runs f and checks that it panics with the message want.
func wantPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if got := recover(); got != want {
			t.Errorf("panic = %v; want %q", got, want)
		}
	}()
	f()
}

// TestGetClassBoundaries checks the length and capacity Get returns for
// n = boundary-1, boundary, boundary+1 of every class up to MaxSize, and
// just above MaxSize.
func TestGetClassBoundaries(t *testing.T) {
	noGC(t)
	var p bytepool.Pool
	for c := 0; c < sizeclass.NumClasses && sizeclass.Size(c) <= bytepool.DefaultMaxSize; c++ {
		size := sizeclass.Size(c)
		for _, n := range []int{size - 1, size, size + 1} {
			want := 0 // the capacity of the class that must serve n
			switch {
			case n > bytepool.DefaultMaxSize:
				want = n
			case n <= size:
				want = size
			default:
				want = sizeclass.Size(c + 1)
			}
			for round := range 2 { // a miss, then (without -race) a hit
				b := p.Get(n)
				if len(b) != n || cap(b) != want {
					t.Fatalf("round %d: Get(%d): len %d, cap %d; want len %d, cap %d", round, n, len(b), cap(b), n, want)
				}
				p.Put(b)
			}
		}
	}
}

// TestPutClassBoundaries checks under which class Put files capacities
// boundary-1, boundary and boundary+1: the largest class not above cap.
func TestPutClassBoundaries(t *testing.T) {
	noGC(t)
	oneP(t) // a goroutine moved to another P between Put and Get would miss
	for c := 0; c < sizeclass.NumClasses && sizeclass.Size(c) <= bytepool.DefaultMaxSize; c++ {
		size := sizeclass.Size(c)
		for _, n := range []int{size - 1, size, size + 1} {
			t.Run(fmt.Sprint(n), func(t *testing.T) {
				var p bytepool.Pool
				b := make([]byte, 3, n)
				p.Put(b)
				st := p.Stats()
				want := sizeclass.Floor(n)
				if n > bytepool.DefaultMaxSize {
					want = -1
				}
				for i, cs := range st.Classes {
					wantPuts := uint64(0)
					if i == want {
						wantPuts = 1
					}
					if cs.Puts != wantPuts {
						t.Errorf("class %d (size %d): Puts = %d; want %d", i, cs.Size, cs.Puts, wantPuts)
					}
				}
				switch {
				case want < 0 && n < sizeclass.MinSize && st.Drops.TooSmall != 1:
					t.Errorf("Drops.TooSmall = %d; want 1", st.Drops.TooSmall)
				case want < 0 && n > bytepool.DefaultMaxSize && st.Drops.TooLarge != 1:
					t.Errorf("Drops.TooLarge = %d; want 1", st.Drops.TooLarge)
				case want >= 0 && !raceEnabled:
					// The slice comes back, cut to its class size.
					g := p.Get(sizeclass.Size(want))
					if base(g) != base(b) || cap(g) != sizeclass.Size(want) {
						t.Errorf("Get(%d) after Put(cap %d): cap %d, same array %v; want cap %d from the same array",
							sizeclass.Size(want), n, cap(g), base(g) == base(b), sizeclass.Size(want))
					}
				}
			})
		}
	}
}

func TestNegativeSize(t *testing.T) {
	var p bytepool.Pool
	for name, f := range map[string]func(){
		"Get":         func() { bytepool.Get(-1) },
		"Zeroed":      func() { bytepool.Zeroed(-1) },
		"Pool.Get":    func() { p.Get(-1) },
		"Pool.Zeroed": func() { p.Zeroed(-5) },
	} {
		t.Run(name, func(t *testing.T) { wantPanic(t, "bytepool: negative size", f) })
	}
}

func TestPutIgnoresEmpty(t *testing.T) {
	var p bytepool.Pool
	p.Put(nil)
	p.Put([]byte{})
	p.Put(make([]byte, 0))
	if st := p.Stats(); st.Puts != 0 || st.Drops.Total() != 0 {
		t.Errorf("after Put of nil and empty slices: Puts %d, Drops %d; want 0, 0", st.Puts, st.Drops.Total())
	}
}

func TestZeroed(t *testing.T) {
	noGC(t)
	var p bytepool.Pool
	b := p.Get(1000)
	for i := range b[:cap(b)] {
		b[:cap(b)][i] = 0xff
	}
	p.Put(b)
	z := p.Zeroed(700)
	if len(z) != 700 {
		t.Fatalf("len(Zeroed(700)) = %d; want 700", len(z))
	}
	for i, c := range z {
		if c != 0 {
			t.Fatalf("Zeroed(700)[%d] = %#x; want 0", i, c)
		}
	}
	if !raceEnabled && base(z) == base(b) && z[:cap(z)][cap(z)-1] != 0xff {
		t.Errorf("Zeroed cleared beyond n")
	}
}

func TestMaxSize(t *testing.T) {
	noGC(t)
	p := bytepool.Pool{MaxSize: 1000} // rounded down to the class of 896
	b := p.Get(896)
	if cap(b) != 896 {
		t.Errorf("cap(Get(896)) = %d; want 896", cap(b))
	}
	big := p.Get(897)
	if cap(big) != 897 {
		t.Errorf("cap(Get(897)) = %d; want 897 (allocated, above MaxSize)", cap(big))
	}
	p.Put(big)
	p.Put(make([]byte, 4<<20))
	st := p.Stats()
	if st.Drops.TooLarge != 2 || st.Idle != 0 {
		t.Errorf("Drops.TooLarge = %d, Idle = %d; want 2, 0", st.Drops.TooLarge, st.Idle)
	}
	if len(st.Classes) != sizeclass.Floor(1000)+1 || st.Classes[len(st.Classes)-1].Size != 896 {
		t.Errorf("Stats has %d classes up to %d; want %d up to 896", len(st.Classes), st.Classes[len(st.Classes)-1].Size, sizeclass.Floor(1000)+1)
	}
	if st.Gets != 2 || st.Misses != 2 {
		t.Errorf("Gets %d, Misses %d; want 2, 2", st.Gets, st.Misses)
	}

	// The default pool never keeps a 4 MiB buffer (golang/go#23199).
	huge := bytepool.Get(4 << 20)
	bytepool.Put(huge)
	if again := bytepool.Get(4 << 20); base(again) == base(huge) {
		t.Errorf("default pool kept a 4 MiB slice")
	}

	tiny := bytepool.Pool{MaxSize: -1} // pools nothing
	if b := tiny.Get(0); b == nil || len(b) != 0 {
		t.Errorf("Get(0) from a pool with no classes = %v; want empty non-nil", b)
	}
	tiny.Put(make([]byte, 16))
	if st := tiny.Stats(); st.Drops.TooLarge != 1 || len(st.Classes) != 0 {
		t.Errorf("pool with no classes: Drops.TooLarge %d, %d classes; want 1, 0", st.Drops.TooLarge, len(st.Classes))
	}
}

// TestStatsByReason drives every drop reason and checks the totals against
// the per-class figures.
func TestStatsByReason(t *testing.T) {
	noGC(t)
	oneP(t)
	p := bytepool.Pool{MaxSize: 64 << 10, MaxBytes: 4096}
	// 8 slices of 1 KiB: 4 fit the budget, the rest are budget drops (and,
	// under -race, some are random drops before the budget is consulted).
	for range 8 {
		p.Put(make([]byte, 1024))
	}
	p.Put(make([]byte, 15))      // too small
	p.Put(make([]byte, 65<<10))  // too large
	p.Put(make([]byte, 0, 1100)) // filed under 1024: over budget now
	st := p.Stats()
	c := st.Classes[sizeclass.Floor(1024)]
	if c.Puts != 9 || st.Puts != 11 {
		t.Errorf("Puts: class 1024 %d, total %d; want 9, 11", c.Puts, st.Puts)
	}
	if st.Drops.TooSmall != 1 || st.Drops.TooLarge != 1 {
		t.Errorf("Drops.TooSmall %d, TooLarge %d; want 1, 1", st.Drops.TooSmall, st.Drops.TooLarge)
	}
	kept := uint64(c.Idle)
	if c.Drops.Budget+c.Drops.Random+kept != 9 {
		t.Errorf("class 1024: Budget %d + Random %d + Idle %d; want 9 in all", c.Drops.Budget, c.Drops.Random, kept)
	}
	if !raceEnabled && (c.Drops.Budget != 5 || c.Drops.Random != 0 || kept != 4) {
		t.Errorf("class 1024: Drops.Budget %d, Drops.Random %d, Idle %d; want 5, 0, 4", c.Drops.Budget, c.Drops.Random, kept)
	}
	if st.IdleBytes != int64(kept)*1024 || st.IdleBytes != p.BudgetIdle() || st.IdleBytes > 4096 {
		t.Errorf("IdleBytes %d, budget %d; want %d, within 4096", st.IdleBytes, p.BudgetIdle(), kept*1024)
	}
	if st.Drops.Total() != st.Drops.Budget+st.Drops.Random+2 || st.Drops.Budget != c.Drops.Budget {
		t.Errorf("totals %+v disagree with class %+v", st.Drops, c.Drops)
	}

	// Gets: hits release budget, a miss and an oversize Get allocate.
	for range int(kept) + 1 {
		p.Put(p.Get(1000)) // Put back at once: a hit keeps the pool at its size
	}
	p.Get(100 << 10)
	st = p.Stats()
	c = st.Classes[sizeclass.Floor(1024)]
	if c.Gets != kept+1 || st.Gets != kept+2 || st.Misses != c.Misses+1 {
		t.Errorf("Gets: class %d (misses %d), total %d (misses %d); want %d, total %d, misses class+1",
			c.Gets, c.Misses, st.Gets, st.Misses, kept+1, kept+2)
	}
	if !raceEnabled && c.Misses != 0 {
		t.Errorf("class 1024 Misses = %d; want 0", c.Misses)
	}
}

// TestBudgetConcurrent checks that the idle bytes never exceed MaxBytes
// while 8 goroutines Get and Put slices of random sizes (and Put fresh ones
// to push the pool against its budget), and that the accounting is exact
// once they stop.
func TestBudgetConcurrent(t *testing.T) {
	noGC(t)
	const maxBytes = 256 << 10
	p := bytepool.Pool{MaxSize: 64 << 10, MaxBytes: maxBytes}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var over sync.Once
	monitor := make(chan struct{})
	go func() {
		defer close(monitor)
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Idle bytes <= max follows from free >= 0 and the
			// conservation law checked below once the pool is quiet.
			if free := p.BudgetFree(); free > maxBytes || free < 0 {
				over.Do(func() { t.Errorf("free budget = %d; want in [0, %d]", free, maxBytes) })
			}
			runtime.Gosched()
		}
	}()
	iters := 20000
	if raceEnabled {
		iters = 2000 // the detector slows each operation about tenfold
	}
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 1))
			held := make([][]byte, 0, 16)
			data := make([]byte, 64<<10)
			for i := range iters {
				n := 1 + r.IntN(64<<10)
				switch {
				case i%7 == 0:
					p.Put(make([]byte, n))
				case i%5 == 0: // Buffers keep storage of their start class
					b := p.GetBuffer()
					b.Write(data[:n%(4<<10)])
					b.Free()
				case len(held) < cap(held) && r.IntN(2) == 0:
					held = append(held, p.Get(n))
				case len(held) > 0:
					p.Put(held[len(held)-1])
					held = held[:len(held)-1]
				default:
					p.Put(p.Get(n))
				}
			}
			for _, b := range held {
				p.Put(b)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-monitor

	st := p.Stats()
	if st.IdleBytes > maxBytes || st.IdleBytes != p.BudgetIdle() {
		t.Errorf("quiescent: Stats.IdleBytes %d, budget %d; want equal and <= %d", st.IdleBytes, p.BudgetIdle(), maxBytes)
	}
	if st.Drops.Budget == 0 {
		t.Errorf("Drops.Budget = 0; the test never reached the budget")
	}
	if st.Buffers.Frees == 0 {
		t.Errorf("Buffers.Frees = 0; no Buffer kept its storage")
	}
	// Take back what this goroutine's P can reach: every hit gives its
	// class size back to the budget, and the count stays exact.
	var hits int64
	for _, c := range st.Classes {
		for range c.Idle {
			before := p.Stats().Classes[sizeclass.Ceil(c.Size)].Misses
			p.Get(c.Size)
			if p.Stats().Classes[sizeclass.Ceil(c.Size)].Misses == before {
				hits += int64(c.Size)
			}
		}
	}
	after := p.Stats()
	if p.BudgetIdle() != st.IdleBytes-hits || after.IdleBytes != p.BudgetIdle() {
		t.Errorf("after taking %d bytes back: budget %d, Stats.IdleBytes %d; want both %d",
			hits, p.BudgetIdle(), after.IdleBytes, st.IdleBytes-hits)
	}
	t.Logf("drops by reason: %+v; idle %d of %d bytes", st.Drops, st.IdleBytes, maxBytes)
}

// TestEvictionReleasesBudget checks that slices released by GC trimming give
// their bytes back to the budget.
func TestEvictionReleasesBudget(t *testing.T) {
	p := bytepool.Pool{MaxBytes: 1 << 20}
	for range 64 {
		p.Put(make([]byte, 4096))
	}
	if p.BudgetIdle() == 0 {
		t.Fatal("nothing cached")
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.BudgetIdle() != 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	st := p.Stats()
	if p.BudgetIdle() != 0 || st.Idle != 0 || st.Evicted == 0 {
		t.Errorf("after GC cycles: budget %d, Idle %d, Evicted %d; want 0, 0, > 0", p.BudgetIdle(), st.Idle, st.Evicted)
	}
	// The freed budget is usable again.
	p.Put(make([]byte, 4096))
	if st := p.Stats(); !raceEnabled && st.Idle != 1 {
		t.Errorf("Idle after a Put = %d; want 1", st.Idle)
	}
}

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops Puts at random, so Gets allocate")
	}
	noGC(t)
	var p bytepool.Pool
	for _, n := range []int{0, 1, 16, 17, 100, 4096, 50000, 1 << 20} {
		p.Put(p.Get(n))
		if a := testing.AllocsPerRun(100, func() { p.Put(p.Get(n)) }); a != 0 {
			t.Errorf("Get(%d)+Put: %v allocs; want 0", n, a)
		}
		bytepool.Put(bytepool.Get(n))
		if a := testing.AllocsPerRun(100, func() { bytepool.Put(bytepool.Zeroed(n)) }); a != 0 {
			t.Errorf("Zeroed(%d)+Put: %v allocs; want 0", n, a)
		}
	}
	line := []byte("level=info msg=\"request served\" status=200\n")
	p.GetBuffer().Free()
	a := testing.AllocsPerRun(100, func() {
		b := p.GetBuffer()
		for range 100 {
			b.Write(line) // grows through several classes
		}
		b.Free()
	})
	if a != 0 {
		t.Errorf("GetBuffer+Write+Free: %v allocs; want 0", a)
	}
}
