package pool_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/pool"
)

// noGC disables the collector for the test so that trimming cannot
// interfere, restoring the old setting at cleanup.
func noGC(t *testing.T) {
	t.Cleanup(func() { debug.SetGCPercent(debug.SetGCPercent(-1)) })
}

// oneP runs the test with GOMAXPROCS=1 so that every Get and Put use the
// same P.
func oneP(t *testing.T) {
	t.Cleanup(func() { runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) })
}

func TestZeroValue(t *testing.T) {
	noGC(t)
	var p pool.Pool[*int]
	if got := p.Get(); got != nil {
		t.Fatalf("Get on empty zero Pool = %v; want nil", got)
	}
	var s pool.Pool[[]byte]
	if got := s.Get(); got != nil {
		t.Fatalf("Get on empty zero Pool[[]byte] = %v; want nil", got)
	}
	type pair struct{ a, b int }
	var v pool.Pool[pair]
	if got := v.Get(); got != (pair{}) {
		t.Fatalf("Get on empty zero Pool[pair] = %v; want zero", got)
	}
	if got, want := p.Stats(), (pool.Stats{Gets: 1, Misses: 1}); got != want {
		t.Fatalf("Stats() = %+v; want %+v", got, want)
	}
}

func TestNew(t *testing.T) {
	noGC(t)
	calls := 0
	p := pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { calls++; return new(bytes.Buffer) }}
	b := p.Get()
	if b == nil || calls != 1 {
		t.Fatalf("Get on empty pool = %v after %d New calls; want a buffer from 1 call", b, calls)
	}
	if s := p.Stats(); s.Gets != 1 || s.Misses != 1 {
		t.Fatalf("Stats() = %+v; want Gets 1, Misses 1", s)
	}
}

// TestLIFO checks that, on one P, Get hands objects back newest first,
// across the per-P block and the shared spill lists. Under the race
// detector some Puts are dropped on purpose; what comes back must then be
// exactly the kept objects, still newest first.
func TestLIFO(t *testing.T) {
	noGC(t)
	oneP(t)
	for _, n := range []int{1, 2, pool.BlockCap, pool.BlockCap + 1, 5 * pool.BlockCap} {
		t.Run("", func(t *testing.T) {
			var p pool.Pool[*int]
			in := make([]*int, n)
			for i := range in {
				in[i] = new(int)
				*in[i] = i
				p.Put(in[i])
			}
			st := p.Stats()
			var out []*int
			for x := p.Get(); x != nil; x = p.Get() {
				out = append(out, x)
			}
			if kept := int(st.Puts - st.Drops); len(out) != kept {
				t.Fatalf("got %d objects back; want %d (Puts %d - Drops %d)", len(out), kept, st.Puts, st.Drops)
			}
			if !pool.RaceEnabled && st.Drops != 0 {
				t.Fatalf("Drops = %d without the race detector; want 0", st.Drops)
			}
			rev := slices.Clone(in)
			slices.Reverse(rev)
			// out must be rev with the dropped objects removed.
			j := 0
			for _, x := range out {
				for j < len(rev) && rev[j] != x {
					j++
				}
				if j == len(rev) {
					t.Fatalf("Get order %v is not newest-first", values(out))
				}
				j++
			}
		})
	}
}

func values(ps []*int) []int {
	var v []int
	for _, p := range ps {
		v = append(v, *p)
	}
	return v
}

func TestResetAndKeep(t *testing.T) {
	noGC(t)
	oneP(t)
	var order []string
	p := pool.Pool[*bytes.Buffer]{
		New: func() *bytes.Buffer { return new(bytes.Buffer) },
		Reset: func(b *bytes.Buffer) {
			order = append(order, "reset")
			b.Reset()
		},
		Keep: func(b *bytes.Buffer) bool {
			order = append(order, "keep")
			return b.Cap() <= 1024
		},
	}
	small := p.Get()
	small.WriteString("secret")
	big := bytes.NewBuffer(make([]byte, 0, 4096))
	p.Put(big)
	p.Put(small)
	if got := p.Get(); got != small && !pool.RaceEnabled {
		t.Fatalf("Get after Put(small) = %p; want the small buffer %p", got, small)
	} else if got.Len() != 0 {
		t.Fatalf("Get returned a buffer holding %q; want it Reset", got.String())
	}
	if got, want := strings.Join(order, ","), "reset,keep,reset,keep"; got != want && !pool.RaceEnabled {
		t.Fatalf("hook calls = %s; want %s", got, want)
	}
	s := p.Stats()
	if s.Puts != 2 || s.Drops < 1 {
		t.Fatalf("Stats() = %+v; want Puts 2 and the big buffer dropped", s)
	}
	if got := p.Get(); got == big {
		t.Fatal("Get returned the buffer Keep refused")
	}
}

func TestPutNil(t *testing.T) {
	noGC(t)
	p := pool.Pool[*int]{New: func() *int { return new(int) }}
	p.Put(nil)
	if got := p.Get(); got == nil {
		t.Fatal("Get after Put(nil) = nil; want New's value (nil must be ignored)")
	}
	if s := p.Stats(); s.Puts != 1 || s.Drops != 1 || s.Idle != 0 {
		t.Fatalf("Stats() after Put(nil) = %+v; want Puts 1, Drops 1, Idle 0", s)
	}
	var sl pool.Pool[[]byte]
	sl.Put(nil)
	if s := sl.Stats(); s.Idle != 0 || s.Drops != 1 {
		t.Fatalf("Pool[[]byte] Stats() after Put(nil) = %+v; want Idle 0, Drops 1", s)
	}
	var ip pool.Pool[any]
	ip.Put(nil)
	if s := ip.Stats(); s.Idle != 0 || s.Drops != 1 {
		t.Fatalf("Pool[any] Stats() after Put(nil) = %+v; want Idle 0, Drops 1", s)
	}
	// Zero values of non-nilable types are ordinary values.
	var zp pool.Pool[int]
	zp.Put(0)
	if s := zp.Stats(); s.Drops != 0 && !pool.RaceEnabled {
		t.Fatalf("Pool[int] Stats() after Put(0) = %+v; want it cached", s)
	}
}

// TestRelease checks that without MinIdle every idle object is released
// within a few GC cycles, including objects in the shards of Ps that
// nobody touches after the Puts, by counting runtime.AddCleanup callbacks
// as Go's own sync/pool_test.go does.
func TestRelease(t *testing.T) {
	const N = 200
	var p pool.Pool[*string]
	var cleaned atomic.Int32
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range N / 4 {
				v := new(string)
				*v = strings.Repeat("x", g+i) // not a tiny allocation
				runtime.AddCleanup(v, func(c *atomic.Int32) { c.Add(1) }, &cleaned)
				p.Put(v)
			}
		})
	}
	wg.Wait()
	for i := 0; i < 10; i++ {
		if !pool.GCAndTrim() {
			t.Fatal("trimmer did not run after GC")
		}
		time.Sleep(time.Duration(i) * 10 * time.Millisecond)
		if cleaned.Load() >= N-1 { // one pointer may stay on a stack
			if s := p.Stats(); s.Idle != 0 {
				t.Fatalf("Stats().Idle = %d after release; want 0", s.Idle)
			}
			return
		}
	}
	t.Fatalf("%d of %d idle objects released after 10 GC cycles; want >= %d", cleaned.Load(), N, N-1)
}

// TestMinIdleSurvivesGC checks that MinIdle objects stay in the pool over
// many GC cycles.
func TestMinIdleSurvivesGC(t *testing.T) {
	const N = 64
	p := pool.Pool[*[64]byte]{MinIdle: N}
	for range N {
		p.Put(new([64]byte))
	}
	kept := int(p.Stats().Puts - p.Stats().Drops)
	for range 12 {
		if !pool.GCAndTrim() {
			t.Fatal("trimmer did not run after GC")
		}
	}
	s := p.Stats()
	if s.Idle != kept || s.Evicted != 0 {
		t.Fatalf("after 12 GC cycles Stats() = %+v; want Idle %d, Evicted 0", s, kept)
	}
	for range kept {
		if p.Get() == nil {
			t.Fatalf("Get returned nil before %d objects were taken; Stats() = %+v", kept, p.Stats())
		}
	}
	if s := p.Stats(); s.Misses != 0 {
		t.Fatalf("Misses = %d; want 0", s.Misses)
	}
}

// TestMinIdleTrimsExcess checks that objects beyond MinIdle are released
// and MinIdle of them are kept.
func TestMinIdleTrimsExcess(t *testing.T) {
	const min, N = 20, 300
	p := pool.Pool[*[64]byte]{MinIdle: min}
	for range N {
		p.Put(new([64]byte))
	}
	for range 6 {
		if !pool.GCAndTrim() {
			t.Fatal("trimmer did not run after GC")
		}
	}
	s := p.Stats()
	if s.Idle < min-runtime.GOMAXPROCS(0) || s.Idle > min+2*pool.BlockCap*runtime.GOMAXPROCS(0) {
		t.Fatalf("after 6 GC cycles Stats() = %+v; want Idle near MinIdle %d", s, min)
	}
	if got := s.Idle + int(s.Evicted) + int(s.Drops); got != N {
		t.Fatalf("Idle+Evicted+Drops = %d; want %d (every Put accounted for)", got, N)
	}
}

// TestMaxIdle checks the bound Idle <= MaxIdle+GOMAXPROCS under concurrent
// Puts, and that the excess is counted as Drops.
func TestMaxIdle(t *testing.T) {
	noGC(t)
	for _, max := range []int{1, 3, 10, 100, 1000} {
		t.Run("", func(t *testing.T) {
			p := pool.Pool[*int]{MaxIdle: max}
			const G, N = 8, 500
			var wg sync.WaitGroup
			for range G {
				wg.Go(func() {
					for range N {
						p.Put(new(int))
					}
				})
			}
			wg.Wait()
			s := p.Stats()
			if limit := max + runtime.GOMAXPROCS(0); s.Idle > limit {
				t.Fatalf("MaxIdle %d: Idle = %d; want <= %d", max, s.Idle, limit)
			}
			// Evicted: objects in the per-thread blocks of a state
			// replaced because a new thread came to use the pool.
			if s.Puts != G*N || uint64(s.Idle)+s.Drops+s.Evicted != s.Puts {
				t.Fatalf("MaxIdle %d: Stats() = %+v; want Puts %d = Idle + Drops + Evicted", max, s, G*N)
			}
			// Objects in another P's local block are out of this
			// goroutine's reach (as with sync.Pool's private slots), so
			// draining from here returns at most Idle, and Idle counts
			// what is left exactly.
			got := 0
			for p.Get() != nil {
				got++
			}
			if left := p.Stats().Idle; got > s.Idle || left != s.Idle-got {
				t.Fatalf("MaxIdle %d: got %d objects back, %d left; want %d in all", max, got, left, s.Idle)
			}
		})
	}
}

// TestStatsExact runs random Gets and Puts from many goroutines and checks
// that, once quiescent, the counters add up exactly.
func TestStatsExact(t *testing.T) {
	noGC(t)
	p := pool.Pool[*int]{New: func() *int { return new(int) }}
	const G, N = 8, 2000
	var wg sync.WaitGroup
	for g := range G {
		wg.Go(func() {
			var held []*int
			for i := range N {
				if (i*7+g)%3 != 0 || len(held) == 0 {
					held = append(held, p.Get())
				} else {
					p.Put(held[len(held)-1])
					held = held[:len(held)-1]
				}
			}
			for _, x := range held {
				p.Put(x)
			}
		})
	}
	wg.Wait()
	s := p.Stats()
	if s.Puts != s.Gets {
		t.Fatalf("Stats() = %+v; want Puts == Gets (every object returned)", s)
	}
	// With GC off, only a state replacement evicts: when a new thread
	// comes to use the pool, the objects in the old per-thread blocks are
	// released (a goroutine may still be using the blocks).
	if hits := s.Gets - s.Misses; uint64(s.Idle) != s.Puts-s.Drops-hits-s.Evicted {
		t.Fatalf("Stats() = %+v; want Idle = Puts - Drops - (Gets - Misses) - Evicted = %d", s, s.Puts-s.Drops-hits-s.Evicted)
	}
}

func TestZeroAllocs(t *testing.T) {
	noGC(t)
	t.Run("pointer", func(t *testing.T) {
		if pool.RaceEnabled {
			t.Skip("under -race Put drops at random and Get then calls New, which allocates")
		}
		p := pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }, Reset: (*bytes.Buffer).Reset}
		if n := testing.AllocsPerRun(1000, func() {
			b := p.Get()
			b.WriteByte('x')
			p.Put(b)
		}); n != 0 {
			t.Fatalf("Get/Put of *bytes.Buffer: %v allocs/op; want 0", n)
		}
	})
	t.Run("slice", func(t *testing.T) {
		var p pool.Pool[[]byte] // New nil: a miss returns nil, no allocation
		p.Put(make([]byte, 64))
		if n := testing.AllocsPerRun(1000, func() {
			if b := p.Get(); b != nil {
				p.Put(b)
			}
		}); n != 0 {
			t.Fatalf("Get/Put of []byte: %v allocs/op; want 0", n)
		}
	})
	t.Run("struct", func(t *testing.T) {
		type rec struct {
			id   int
			name string
			tags []string
		}
		var p pool.Pool[rec]
		if n := testing.AllocsPerRun(1000, func() {
			r := p.Get()
			r.id++
			p.Put(r)
		}); n != 0 {
			t.Fatalf("Get/Put of a struct: %v allocs/op; want 0", n)
		}
	})
}

// TestStressWithGC has many goroutines Get and Put while another forces GC
// cycles; each object carries a "held" flag that must never be taken twice.
func TestStressWithGC(t *testing.T) {
	type obj struct {
		held atomic.Bool
		data [32]byte
	}
	for _, cfg := range []struct {
		name             string
		minIdle, maxIdle int
	}{{"plain", 0, 0}, {"minidle", 64, 0}, {"maxidle", 0, 32}, {"both", 16, 64}} {
		t.Run(cfg.name, func(t *testing.T) {
			p := pool.Pool[*obj]{New: func() *obj { return new(obj) }, MinIdle: cfg.minIdle, MaxIdle: cfg.maxIdle}
			dur := time.Second
			if testing.Short() {
				dur = 200 * time.Millisecond
			}
			stop := make(chan struct{})
			var gcs sync.WaitGroup
			gcs.Go(func() { pool.ForceGC(stop) })
			var wg sync.WaitGroup
			var ops, twice atomic.Int64
			deadline := time.Now().Add(dur)
			for g := range 4 * runtime.GOMAXPROCS(0) {
				wg.Go(func() {
					var held []*obj
					for i := 0; time.Now().Before(deadline); i++ {
						if (i+g)%5 < 3 {
							o := p.Get()
							if !o.held.CompareAndSwap(false, true) {
								twice.Add(1)
							}
							o.data[0]++
							held = append(held, o)
						} else if len(held) > 0 {
							o := held[0]
							held = held[1:]
							o.held.Store(false)
							p.Put(o)
						}
						if len(held) > 16 {
							for _, o := range held {
								o.held.Store(false)
								p.Put(o)
							}
							held = held[:0]
						}
						ops.Add(1)
					}
					for _, o := range held {
						o.held.Store(false)
						p.Put(o)
					}
				})
			}
			wg.Wait()
			close(stop)
			gcs.Wait()
			if n := twice.Load(); n != 0 {
				t.Fatalf("%d objects handed out while already held", n)
			}
			s := p.Stats()
			if s.Gets == 0 || s.Puts != s.Gets {
				t.Fatalf("Stats() = %+v; want Puts == Gets > 0", s)
			}
			if cfg.maxIdle > 0 && s.Idle > cfg.maxIdle+runtime.GOMAXPROCS(0) {
				t.Fatalf("Idle = %d; want <= MaxIdle+GOMAXPROCS = %d", s.Idle, cfg.maxIdle+runtime.GOMAXPROCS(0))
			}
			t.Logf("%d ops, %+v", ops.Load(), s)
		})
	}
}

// TestGOMAXPROCSGrowth uses a pool created under GOMAXPROCS=1 after
// GOMAXPROCS grows, concurrently, and checks nothing is lost or duplicated.
func TestGOMAXPROCSGrowth(t *testing.T) {
	noGC(t)
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	p := pool.Pool[*int]{New: func() *int { return new(int) }}
	for range 3 * pool.BlockCap {
		p.Put(new(int))
	}
	runtime.GOMAXPROCS(4)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				x := p.Get()
				p.Put(x)
			}
		})
	}
	wg.Wait()
	s := p.Stats()
	if s.Gets != 8000 || s.Puts != 8000+3*pool.BlockCap {
		t.Fatalf("Stats() = %+v; want Gets 8000, Puts %d", s, 8000+3*pool.BlockCap)
	}
	seen := map[*int]bool{}
	for range s.Idle {
		x := p.Get()
		if seen[x] {
			t.Fatalf("Get returned %p twice", x)
		}
		seen[x] = true
	}
}

func TestShardPadding(t *testing.T) {
	if s := pool.ShardSize(); s%128 != 0 {
		t.Fatalf("shard size %d; want a multiple of 128", s)
	}
	if o := pool.ShardOwnerOffset(); o%128 != 0 {
		t.Fatalf("shared part at offset %d; want a multiple of 128", o)
	}
}

// TestVetCopyLock checks that go vet's copylocks check reports a copied Pool.
func TestVetCopyLock(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go command not found: %v", err)
	}
	dir := t.TempDir()
	wd, _ := os.Getwd()
	files := map[string]string{
		"go.mod": "module copytest\ngo 1.26\nrequire github.com/poolkit/pool v0.0.0\nreplace github.com/poolkit/pool => " + filepath.ToSlash(wd) + "\n",
		"a.go": `package copytest

import "github.com/poolkit/pool"

func f(p pool.Pool[*int]) {}

func g() {
	var p pool.Pool[*int]
	f(p)
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(gobin, "vet", "-copylocks", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "passes lock by value") {
		t.Fatalf("go vet -copylocks on a copied Pool: err %v, output:\n%s\nwant a 'passes lock by value' report", err, out)
	}
}

// TestStatsWhileInUse reads Stats in a loop while other goroutines Get and
// Put: Stats must neither block them nor (under -race) make a goroutine
// pinned to its P wait on a lock held by an unpinned one.
func TestStatsWhileInUse(t *testing.T) {
	p := pool.Pool[*int]{New: func() *int { return new(int) }, MinIdle: 8}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					p.Put(p.Get())
				}
			}
		})
	}
	wg.Go(func() { pool.ForceGC(stop) })
	var last uint64
	for range 20000 {
		s := p.Stats()
		if s.Gets < last {
			t.Errorf("Gets went backwards: %d after %d", s.Gets, last)
		}
		last = s.Gets
	}
	close(stop)
	wg.Wait()
}

// TestNegativeBounds checks the documented handling of bad configuration:
// negative MaxIdle and MinIdle are treated as 0 (no bound, no retention).
func TestNegativeBounds(t *testing.T) {
	noGC(t)
	p := pool.Pool[*int]{MaxIdle: -5, MinIdle: -1}
	const N = 100
	for range N {
		p.Put(new(int))
	}
	if s := p.Stats(); s.Puts != N || uint64(s.Idle)+s.Drops != N || (!pool.RaceEnabled && s.Idle != N) {
		t.Fatalf("Stats() = %+v; want all %d Puts kept (negative MaxIdle means no bound)", s, N)
	}
}
