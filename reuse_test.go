package pool_test

import (
	"runtime"
	"testing"
	"weak"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

// The tests in this file check that what a pool counts as idle after a GC
// cycle can be taken by Get: trimming moves a P's cached objects aside for
// a cycle, and a Get on that P must still reach them, as sync.Pool's Get
// reaches its victim cache.

// TestGetAfterOneGC: objects put before one GC cycle are handed out again
// by the next Gets of the goroutine that put them (an outside test found
// all 16 Gets calling New while Stats().Idle said 16). GOMAXPROCS is 1 so
// that the goroutine stays on the P whose cache holds them.
func TestGetAfterOneGC(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, cfg := range []struct {
		name             string
		minIdle, maxIdle int
	}{{"plain", 0, 0}, {"MaxIdle=64", 0, 64}, {"MinIdle=MaxIdle=16", 16, 16}} {
		t.Run(cfg.name, func(t *testing.T) {
			news := 0
			p := pool.Pool[*[64]byte]{
				New:     func() *[64]byte { news++; return new([64]byte) },
				MinIdle: cfg.minIdle,
				MaxIdle: cfg.maxIdle,
			}
			const n = 16
			objs := make([]*[64]byte, n)
			for i := range objs {
				objs[i] = p.Get()
			}
			for _, o := range objs {
				p.Put(o)
			}
			news = 0
			if !pool.GCAndTrim() {
				t.Fatal("the trimmer did not catch up")
			}
			// Under -race, Put drops one object in four at random.
			idle := p.Stats().Idle
			if idle != n && !pool.RaceEnabled {
				t.Fatalf("after one GC: Stats().Idle = %d; want %d", idle, n)
			}
			for i := range objs {
				objs[i] = p.Get()
			}
			if news != n-idle {
				t.Errorf("after one GC: %d of %d Gets called New while the pool held %d idle; want %d", news, n, idle, n-idle)
			}
			for _, o := range objs {
				p.Put(o)
			}
			checkIdentity(t, p.Stats())
		})
	}
}

// TestRoundsWithGC: a pool with MinIdle = MaxIdle = the objects in use per
// round, a GC cycle between rounds: every Get after the first round hits
// and no Put is dropped (the outside test saw a hit ratio of 0.47 and half
// the Puts dropped, the unreachable objects filling MaxIdle).
func TestRoundsWithGC(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const n, rounds = 16, 30
	p := pool.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }, MinIdle: n, MaxIdle: n}
	objs := make([]*[64]byte, n)
	for r := range rounds {
		before := p.Stats()
		for i := range objs {
			objs[i] = p.Get()
		}
		// Every idle object is reachable: only the Gets beyond them miss.
		if got, want := p.Stats().Misses-before.Misses, uint64(n-before.Idle); got != want {
			t.Fatalf("round %d: %d of %d Gets missed with %d idle; want %d", r, got, n, before.Idle, want)
		}
		for _, o := range objs {
			p.Put(o)
		}
		if !pool.GCAndTrim() {
			t.Fatalf("round %d: the trimmer did not catch up", r)
		}
	}
	s := p.Stats()
	checkIdentity(t, s)
	if !pool.RaceEnabled && (s.Misses != n || s.Drops != 0) {
		t.Errorf("after %d rounds of %d: Stats() = %+v; want %d misses (the first round) and no drops", rounds, n, s, n)
	}
}

// TestBytepoolGetAfterOneGC is TestGetAfterOneGC for bytepool's classes.
func TestBytepoolGetAfterOneGC(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var p bytepool.Pool
	const n = 16
	bufs := make([][]byte, n)
	for i := range bufs {
		bufs[i] = p.Get(1000)
	}
	for _, b := range bufs {
		p.Put(b)
	}
	if !pool.GCAndTrim() {
		t.Fatal("the trimmer did not catch up")
	}
	before := p.Stats()
	if before.Idle != n && !pool.RaceEnabled { // -race drops one Put in four
		t.Fatalf("after one GC: Stats().Idle = %d; want %d", before.Idle, n)
	}
	for i := range bufs {
		bufs[i] = p.Get(1000)
	}
	after := p.Stats()
	if got, want := after.Misses-before.Misses, uint64(n-before.Idle); got != want {
		t.Errorf("after one GC: %d of %d Gets missed with %d idle; want %d", got, n, before.Idle, want)
	}
	for _, b := range bufs {
		p.Put(b)
	}
}

// TestCollectedByThirdCycle checks the GC section of the package doc:
// without MinIdle, an object idle in a P's cache survives the first cycle
// (it is still reachable by Get) and is collected by the third.
func TestCollectedByThirdCycle(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var p pool.Pool[*[64]byte]
	var w weak.Pointer[[64]byte]
	for p.Stats().Idle == 0 { // under -race, Put drops one object in four
		o := new([64]byte)
		w = weak.Make(o)
		p.Put(o)
	}
	for cycle := 1; cycle <= 3; cycle++ {
		if !pool.GCAndTrim() {
			t.Fatal("the trimmer did not catch up")
		}
		alive := w.Value() != nil
		if cycle == 1 && !alive {
			t.Fatalf("collected by cycle 1; want it kept (a Get on its P may still take it)")
		}
		if cycle == 3 && alive {
			t.Fatalf("still alive after cycle 3; the doc says the third cycle collects it")
		}
		t.Logf("after cycle %d: alive %v, Stats %+v", cycle, alive, p.Stats())
	}
}
