package prometheus_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
	poolprom "github.com/poolkit/pool/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// expositionFmt is the HELP and TYPE lines of the six metrics of every pool, in the order
// testutil sorts metric families (by name), with a %s per family for its samples.
const expositionFmt = `
# HELP poolkit_drops_total Total number of Put calls whose object was not cached: nil, refused by Keep, over MaxIdle, over a bytepool's byte budget or size bounds, refused by a debug check, or dropped at random under the race detector.
# TYPE poolkit_drops_total counter
%[1]s
# HELP poolkit_evicted_total Total number of idle objects the pool released without handing them out: by garbage-collection trimming, which releases more while the heap is near its memory limit (GOMEMLIMIT).
# TYPE poolkit_evicted_total counter
%[2]s
# HELP poolkit_gets_total Total number of Get calls on the pool (for a bytepool: Gets of slices, Buffers' storage included, and GetBuffer calls that looked for an idle Buffer with storage).
# TYPE poolkit_gets_total counter
%[3]s
# HELP poolkit_idle_objects Number of idle objects held by the pool now (approximate while the pool is in use).
# TYPE poolkit_idle_objects gauge
%[4]s
# HELP poolkit_misses_total Total number of Get calls that found nothing idle to hand out and allocated instead (called New, or made a slice).
# TYPE poolkit_misses_total counter
%[5]s
# HELP poolkit_puts_total Total number of Put calls on the pool (for a bytepool: Puts of slices, Buffers' storage included, and Frees that offered a Buffer with its storage).
# TYPE poolkit_puts_total counter
%[6]s
`

// TestCollectorPool checks the exact exposition of a registered pool.Pool
// after known Gets and Puts.
func TestCollectorPool(t *testing.T) {
	// MinIdle keeps the idle objects across GC cycles, so that a GC during
	// the test cannot evict them.
	p := pool.Pool[*int]{New: func() *int { return new(int) }, MinIdle: 8}
	pool.Register("ints", &p)
	defer pool.Unregister("ints")

	a, b, c := p.Get(), p.Get(), p.Get() // 3 Gets, 3 Misses
	p.Put(a)
	p.Put(b)
	p.Put(nil) // always dropped
	_ = c      // kept by the caller: Gets - Puts = 1 outstanding

	s := p.Stats()
	// Under -race, Put drops objects at random; without it, nothing but
	// the nil is dropped.
	drops := uint64(1)
	if raceEnabled {
		drops = s.Drops
	}
	if want := (pool.Stats{Gets: 3, Misses: 3, Puts: 3, Drops: drops, Idle: int(3 - drops)}); s != want {
		t.Fatalf("Stats() = %+v; want %+v", s, want)
	}

	want := fmt.Sprintf(expositionFmt,
		fmt.Sprintf(`poolkit_drops_total{pool="ints"} %d`, drops),
		`poolkit_evicted_total{pool="ints"} 0`,
		`poolkit_gets_total{pool="ints"} 3`,
		fmt.Sprintf(`poolkit_idle_objects{pool="ints"} %d`, 3-drops),
		`poolkit_misses_total{pool="ints"} 3`,
		`poolkit_puts_total{pool="ints"} 3`,
	)
	if err := testutil.CollectAndCompare(poolprom.NewCollector(), strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
}

// TestCollectorRegisterFunc checks every field, including Evicted, and the
// labels of several pools registered through RegisterFunc.
func TestCollectorRegisterFunc(t *testing.T) {
	pool.RegisterFunc("b", func() pool.Stats {
		return pool.Stats{Gets: 10, Misses: 2, Puts: 9, Drops: 1, Evicted: 3, Idle: 5}
	})
	defer pool.Unregister("b")
	pool.RegisterFunc(`a "quoted"\name`, func() pool.Stats {
		return pool.Stats{Gets: 1 << 40}
	})
	defer pool.Unregister(`a "quoted"\name`)

	want := fmt.Sprintf(expositionFmt,
		`poolkit_drops_total{pool="a \"quoted\"\\name"} 0`+"\n"+`poolkit_drops_total{pool="b"} 1`,
		`poolkit_evicted_total{pool="a \"quoted\"\\name"} 0`+"\n"+`poolkit_evicted_total{pool="b"} 3`,
		`poolkit_gets_total{pool="a \"quoted\"\\name"} 1.099511627776e+12`+"\n"+`poolkit_gets_total{pool="b"} 10`,
		`poolkit_idle_objects{pool="a \"quoted\"\\name"} 0`+"\n"+`poolkit_idle_objects{pool="b"} 5`,
		`poolkit_misses_total{pool="a \"quoted\"\\name"} 0`+"\n"+`poolkit_misses_total{pool="b"} 2`,
		`poolkit_puts_total{pool="a \"quoted\"\\name"} 0`+"\n"+`poolkit_puts_total{pool="b"} 9`,
	)
	if err := testutil.CollectAndCompare(poolprom.NewCollector(), strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
}

// TestCollectorNoPools checks that a collector with nothing registered
// collects nothing and still registers cleanly.
func TestCollectorNoPools(t *testing.T) {
	if got := testutil.CollectAndCount(poolprom.NewCollector()); got != 0 {
		t.Fatalf("CollectAndCount() = %d; want 0", got)
	}
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(poolprom.NewCollector()); err != nil {
		t.Fatalf("Register: %v", err)
	}
	// A second collector describes the same metrics: the registry must
	// refuse it rather than export every series twice.
	if err := reg.Register(poolprom.NewCollector()); err == nil {
		t.Fatalf("second Register: got nil error; want a duplicate-metrics error")
	}
}

// TestCollectorInvalidName checks that a pool name that cannot be a label
// value makes the scrape fail instead of panicking.
func TestCollectorInvalidName(t *testing.T) {
	pool.RegisterFunc("bad\xff", func() pool.Stats { return pool.Stats{} })
	defer pool.Unregister("bad\xff")
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(poolprom.NewCollector())
	if _, err := reg.Gather(); err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Fatalf("Gather() error = %v; want one about invalid UTF-8", err)
	}
}

func TestCollectorLint(t *testing.T) {
	p := pool.Pool[*int]{New: func() *int { return new(int) }}
	pool.Register("lint", &p)
	defer pool.Unregister("lint")
	p.Put(p.Get())

	problems, err := testutil.CollectAndLint(poolprom.NewCollector())
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range problems {
		t.Errorf("lint: %s: %s", pr.Metric, pr.Text)
	}
	if got := testutil.CollectAndCount(poolprom.NewCollector()); got != 6 {
		t.Fatalf("CollectAndCount() = %d; want 6 (one per statistic)", got)
	}
}

// TestCollectorConcurrent scrapes repeatedly while goroutines use a pool.
// Run under -race, it checks that Collect and the pool's operations do not
// race; that it finishes at all checks that collecting does not block them
// (nor the reverse). The counters it reads must never go backwards.
func TestCollectorConcurrent(t *testing.T) {
	t.Run("Pool", func(t *testing.T) {
		p := pool.Pool[*[64]byte]{
			New:     func() *[64]byte { return new([64]byte) },
			MaxIdle: 16,
		}
		pool.Register("concurrent", &p)
		defer pool.Unregister("concurrent")
		n := scrapeWhile(t, func() {
			b := p.Get()
			b[0]++
			p.Put(b)
		})
		if s := p.Stats(); s.Gets < n || s.Puts != s.Gets {
			t.Fatalf("Stats() = %+v; want Gets = Puts >= %d", s, n)
		}
	})

	// RegisterFunc with counters updated by the workers, while other pools
	// are registered and unregistered: exercises the registry and
	// Collect under -race independently of the engine.
	t.Run("RegisterFunc", func(t *testing.T) {
		var gets, puts atomic.Uint64
		pool.RegisterFunc("concurrent-func", func() pool.Stats {
			return pool.Stats{Gets: gets.Load(), Puts: puts.Load()}
		})
		defer pool.Unregister("concurrent-func")
		var churn atomic.Uint64
		n := scrapeWhile(t, func() {
			gets.Add(1)
			puts.Add(1)
			if i := churn.Add(1); i%64 == 0 {
				name := fmt.Sprintf("churn-%d", i)
				pool.RegisterFunc(name, func() pool.Stats { return pool.Stats{Idle: 1} })
				pool.Unregister(name)
			}
		})
		if g := gets.Load(); g < n {
			t.Fatalf("gets = %d; want >= %d", g, n)
		}
	})
}

// scrapeWhile runs op in a loop on 4 goroutines and gathers from a registry
// holding a Collector 200 times meanwhile; each goroutine then runs op at
// least 5000 times in all. It fails t if a gathered poolkit_gets_total
// decreases, and returns the minimum total number of op calls.
func scrapeWhile(t *testing.T, op func()) uint64 {
	t.Helper()
	const workers, iters, scrapes = 4, 5000, 200
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					if i >= iters {
						return
					}
				default:
				}
				op()
			}
		}()
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(poolprom.NewCollector())
	last := map[string]float64{}
	for range scrapes {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() != "poolkit_gets_total" {
				continue
			}
			for _, m := range mf.GetMetric() {
				name := m.GetLabel()[0].GetValue()
				g := m.GetCounter().GetValue()
				if g < last[name] {
					t.Fatalf("poolkit_gets_total{pool=%q} went from %v to %v", name, last[name], g)
				}
				last[name] = g
			}
		}
	}
	close(stop)
	wg.Wait()
	return workers * iters
}

// TestCollectorBytepool: a pool registered with bytepool.Register is
// exported with its generic counters (bytepool.Stats.AsPoolStats) and its
// idle bytes, byte budget and drops by reason, with nothing converted by
// hand.
func TestCollectorBytepool(t *testing.T) {
	p := &bytepool.Pool{MaxBytes: 1 << 20}
	bytepool.Register("bytes", p)
	defer bytepool.Unregister("bytes")
	p.Put(make([]byte, 4)) // too small
	p.Put(p.Get(4000))

	st := p.Stats()
	g, d := st.AsPoolStats(), st.DropsByReason()
	want := fmt.Sprintf(`
# HELP poolkit_bytepool_drops_total Total number of a bytepool's Puts and Buffer Frees that did not cache, by reason: budget (over MaxBytes), too_large (capacity over MaxSize), too_small (capacity under 16 bytes), random (race detector), subslice (debug mode: the slice does not start its allocation). The reasons add up to poolkit_drops_total.
# TYPE poolkit_bytepool_drops_total counter
poolkit_bytepool_drops_total{pool="bytes",reason="budget"} %d
poolkit_bytepool_drops_total{pool="bytes",reason="random"} %d
poolkit_bytepool_drops_total{pool="bytes",reason="subslice"} 0
poolkit_bytepool_drops_total{pool="bytes",reason="too_large"} 0
poolkit_bytepool_drops_total{pool="bytes",reason="too_small"} 1
# HELP poolkit_bytepool_idle_bytes Bytes held by a bytepool's idle slices and idle Buffers' storage, counted at class size; never above poolkit_bytepool_max_bytes.
# TYPE poolkit_bytepool_idle_bytes gauge
poolkit_bytepool_idle_bytes{pool="bytes"} %d
# HELP poolkit_bytepool_max_bytes A bytepool's byte budget (its MaxBytes after defaults).
# TYPE poolkit_bytepool_max_bytes gauge
poolkit_bytepool_max_bytes{pool="bytes"} 1.048576e+06
# HELP poolkit_drops_total Total number of Put calls whose object was not cached: nil, refused by Keep, over MaxIdle, over a bytepool's byte budget or size bounds, refused by a debug check, or dropped at random under the race detector.
# TYPE poolkit_drops_total counter
poolkit_drops_total{pool="bytes"} %d
# HELP poolkit_gets_total Total number of Get calls on the pool (for a bytepool: Gets of slices, Buffers' storage included, and GetBuffer calls that looked for an idle Buffer with storage).
# TYPE poolkit_gets_total counter
poolkit_gets_total{pool="bytes"} 1
# HELP poolkit_idle_objects Number of idle objects held by the pool now (approximate while the pool is in use).
# TYPE poolkit_idle_objects gauge
poolkit_idle_objects{pool="bytes"} %d
`, d.Budget, d.Random, st.IdleBytes, g.Drops, g.Idle)
	if d.TooSmall != 1 || g.Gets != 1 || g.Puts != 2 {
		t.Fatalf("Stats: %+v, drops %+v; want Gets 1, Puts 2, TooSmall 1", g, d)
	}
	err := testutil.CollectAndCompare(poolprom.NewCollector(), strings.NewReader(want),
		"poolkit_bytepool_drops_total", "poolkit_bytepool_idle_bytes", "poolkit_bytepool_max_bytes",
		"poolkit_drops_total", "poolkit_gets_total", "poolkit_idle_objects")
	if err != nil {
		t.Fatal(err)
	}
}
