package pool_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

// The tests in this file try to break the documented bounds with the
// thread patterns real programs have: threads that arrive one at a time,
// threads that exit while locked (LockOSThread without Unlock), and
// GOMAXPROCS from 1 to 256.

var procsToTry = []int{1, 2, 8, 16, 64, 256}

// withProcs runs f at GOMAXPROCS n.
func withProcs(t *testing.T, n int, f func(t *testing.T)) {
	t.Run(fmt.Sprintf("procs=%d", n), func(t *testing.T) {
		old := runtime.GOMAXPROCS(n)
		defer runtime.GOMAXPROCS(old)
		f(t)
	})
}

// onNewThread runs f on a goroutine locked to a new OS thread that exits
// with it (the goroutine returns without UnlockOSThread).
func onNewThread(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		f()
	}()
	<-done
}

// checkIdentity checks Stats' quiescent identity:
// Puts-Drops == Gets-Misses+Evicted+Idle.
func checkIdentity(t *testing.T, s pool.Stats) {
	t.Helper()
	if int64(s.Puts-s.Drops) != int64(s.Gets-s.Misses)+int64(s.Evicted)+int64(s.Idle) {
		t.Fatalf("Stats() = %+v: Puts-Drops = %d; want Gets-Misses+Evicted+Idle = %d",
			s, s.Puts-s.Drops, int64(s.Gets-s.Misses)+int64(s.Evicted)+int64(s.Idle))
	}
}

// TestMinIdleWithMaxIdle: MinIdle objects survive GC cycles whatever
// MaxIdle is (the issue found 22 of 100 with MaxIdle 150).
func TestMinIdleWithMaxIdle(t *testing.T) {
	for _, procs := range []int{1, 2, 64} {
		withProcs(t, procs, func(t *testing.T) {
			for _, maxIdle := range []int{100, 150, 200} {
				const minIdle = 100
				p := pool.Pool[*[16]byte]{MinIdle: minIdle, MaxIdle: maxIdle}
				held := make([]*[16]byte, minIdle)
				for i := range held {
					held[i] = new([16]byte)
				}
				for _, x := range held {
					p.Put(x)
				}
				// Under the race detector Put drops one object in four
				// on purpose; every other Put must be kept.
				s := p.Stats()
				kept := int(s.Puts - s.Drops)
				if s.Idle != kept || !pool.RaceEnabled && s.Drops != 0 {
					t.Fatalf("MaxIdle %d: after %d Puts Stats() = %+v; want Idle %d, no Drops", maxIdle, minIdle, s, minIdle)
				}
				for range 10 {
					pool.GCAndTrim()
				}
				if s := p.Stats(); s.Idle != kept {
					t.Fatalf("MaxIdle %d: after 10 GC cycles Stats() = %+v; want Idle %d", maxIdle, s, kept)
				}
				hits := 0
				for range minIdle {
					if p.Get() != nil {
						hits++
					}
				}
				if hits != kept {
					t.Fatalf("MaxIdle %d: %d hits of %d Gets after GC; want %d", maxIdle, hits, minIdle, kept)
				}
			}
		})
	}
}

// TestMaxIdleThreadArrivals: threads arrive one at a time, each locked to
// its own M and staying alive, and after each arrival every thread takes
// and returns n objects; Idle must stay within MaxIdle+GOMAXPROCS at every
// step (the issue found 97 for a bound of 66, and 1,759 for 1,040).
func TestMaxIdleThreadArrivals(t *testing.T) {
	for _, procs := range procsToTry {
		withProcs(t, procs, func(t *testing.T) {
			for _, cfg := range []struct{ max, min, n int }{{64, 8, 40}, {1024, 16, 300}} {
				p := pool.Pool[*int]{New: func() *int { return new(int) }, MaxIdle: cfg.max, MinIdle: cfg.min}
				limit := cfg.max + runtime.GOMAXPROCS(0)
				var workers []chan chan struct{}
				for th := range 24 {
					w := make(chan chan struct{})
					workers = append(workers, w)
					go func() {
						runtime.LockOSThread()
						for done := range w {
							held := make([]*int, cfg.n)
							for i := range held {
								held[i] = p.Get()
							}
							for _, x := range held {
								p.Put(x)
							}
							close(done)
						}
					}()
					for _, w := range workers {
						done := make(chan struct{})
						w <- done
						<-done
						if s := p.Stats(); s.Idle > limit {
							t.Fatalf("MaxIdle %d: %d threads: Idle = %d; want <= %d", cfg.max, th+1, s.Idle, limit)
						}
					}
					if th%8 == 7 {
						pool.GCAndTrim()
					}
				}
				for _, w := range workers {
					close(w) // the threads exit locked
				}
				checkIdentity(t, p.Stats())
			}
		})
	}
}

// TestCapacityOneGoroutine: one goroutine that takes and returns k <=
// MaxIdle/2 objects gets at least 0.9k hits on its next k Gets, at any
// GOMAXPROCS (the issue found 8 of 1,500 at GOMAXPROCS 64).
func TestCapacityOneGoroutine(t *testing.T) {
	noGC(t)
	for _, procs := range procsToTry {
		withProcs(t, procs, func(t *testing.T) {
			for _, cfg := range []struct{ max, min int }{{1024, 16}, {64, 0}, {10, 10}, {2, 1}} {
				// The goroutine can move to another P between its Puts and
				// its Gets (seen 2 times in 1,600 rounds under -race); the
				// objects then wait in the first P's cache, which other Ps
				// see only after the next GC, as documented. A round that
				// misses is tried again; a pool that loses objects misses
				// every time.
				var failure string
				for attempt := 0; attempt < 3; attempt++ {
					failure = capacityRound(cfg.max, cfg.min)
					if failure == "" {
						break
					}
					t.Logf("attempt %d: %s", attempt+1, failure)
				}
				if failure != "" {
					t.Fatal(failure)
				}
			}
		})
	}
}

// capacityRound puts max/2 objects into a fresh pool and gets them back
// from the same goroutine; it describes the failure if fewer than 90% come
// back.
func capacityRound(max, min int) string {
	k := max / 2
	p := pool.Pool[*int]{MaxIdle: max, MinIdle: min}
	held := make([]*int, k)
	for i := range held {
		held[i] = new(int)
	}
	for _, x := range held {
		p.Put(x)
	}
	hits := 0
	for range k {
		if p.Get() != nil {
			hits++
		}
	}
	if pool.RaceEnabled {
		// Put drops one object in four on purpose.
		s := p.Stats()
		k -= int(s.Drops)
	}
	if 10*hits < 9*k {
		return fmt.Sprintf("MaxIdle %d MinIdle %d: %d hits of %d; want >= 90%% (Stats %+v)", max, min, hits, k, p.Stats())
	}
	return ""
}

// TestBudgetAfterLockedThreadExits: budget credit held by threads that exit
// while locked comes back (the issue found a pool refusing 100 of 100 Puts
// while it held nothing, after 16 such exits).
func TestBudgetAfterLockedThreadExits(t *testing.T) {
	noGC(t)
	const size = 64 << 10
	p := &bytepool.Pool{MaxBytes: 8 << 20}
	for range 64 {
		onNewThread(func() {
			b := p.Get(size)
			p.Put(b)
			b = p.Get(size)
			p.Put(p.Get(size))
			p.Put(b)
		})
	}
	// Take back what the threads left, then Put 32 buffers (2 MiB, a
	// quarter of MaxBytes).
	for range 64 {
		p.Get(size)
	}
	before := p.Stats()
	const n = 32
	bufs := make([][]byte, n)
	for i := range bufs {
		bufs[i] = make([]byte, size)
	}
	for _, b := range bufs {
		p.Put(b)
	}
	after := p.Stats()
	// Budget drops only: under -race Put also drops one slice in four at
	// random (Drops.Random).
	dropped := after.Drops.Budget - before.Drops.Budget
	if 10*(n-int(dropped)) < 9*n {
		t.Fatalf("after 64 locked-thread exits %d of %d Puts of %d bytes dropped (IdleBytes %d of MaxBytes %d); want >= 90%% cached",
			dropped, n, size, after.IdleBytes, p.MaxBytes)
	}
}

// TestPanickingHooks: a panic in Reset or Keep leaves the pool and debug
// mode as if the Put had not been made; a panic in New counts a Get and a
// Miss only.
func TestPanickingHooks(t *testing.T) {
	withDebug(t, "doubleput=1")
	reports := collect(t)
	type obj struct{ n int }
	var panicReset, panicKeep, panicNew bool
	p := pool.Pool[*obj]{
		New: func() *obj {
			if panicNew {
				panic("new")
			}
			return new(obj)
		},
		Reset: func(o *obj) {
			if panicReset {
				panic("reset")
			}
		},
		Keep: func(o *obj) bool {
			if panicKeep {
				panic("keep")
			}
			return true
		},
	}
	call := func(f func()) (panicked bool) {
		defer func() { panicked = recover() != nil }()
		f()
		return false
	}
	for _, hook := range []*bool{&panicReset, &panicKeep} {
		o := p.Get()
		before := p.Stats()
		*hook = true
		if !call(func() { p.Put(o) }) {
			t.Fatal("Put did not panic")
		}
		*hook = false
		if s := p.Stats(); s != before {
			t.Fatalf("after a Put whose hook panicked Stats() = %+v; want %+v", s, before)
		}
		p.Put(o) // correct: o was never cached
		if r := reports.get(); len(r) != 0 {
			t.Fatalf("reports after the correct Put: %+v; want none", r)
		}
		if got := p.Get(); !pool.RaceEnabled && got != o {
			t.Fatalf("Get = %p; want the object Put after the panic, %p", got, o)
		}
	}
	before := p.Stats()
	panicNew = true
	if !call(func() { p.Get() }) {
		t.Fatal("Get did not panic")
	}
	panicNew = false
	s := p.Stats()
	if s.Gets != before.Gets+1 || s.Misses != before.Misses+1 || s.Puts != before.Puts || s.Idle != before.Idle {
		t.Fatalf("after New panicked Stats() = %+v; want one more Get and Miss than %+v", s, before)
	}
	checkIdentity(t, s)
}

// TestStatsExactAfterChurn: after thread churn and GC cycles, the counters
// add up exactly once the pool is quiescent (the issue found them off by 3
// to 7 in half the runs).
func TestStatsExactAfterChurn(t *testing.T) {
	for run := range 10 {
		p := pool.Pool[*int]{New: func() *int { return new(int) }, MinIdle: run % 3 * 8, MaxIdle: run % 2 * 100}
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for th := range 20 {
					onNewThread(func() {
						var held []*int
						for i := range 100 {
							if (i+g+th)%3 != 0 || len(held) == 0 {
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
			})
		}
		stop := make(chan struct{})
		var gcs sync.WaitGroup
		gcs.Go(func() { pool.ForceGC(stop) })
		wg.Wait()
		close(stop)
		gcs.Wait()
		for range 4 {
			pool.GCAndTrim()
		}
		checkIdentity(t, p.Stats())
	}
}
