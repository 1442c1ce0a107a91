package pool_test

import (
	"encoding/binary"
	"flag"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

var soakDuration = flag.Duration("soak", 2*time.Second, "how long BenchmarkSoak runs its load")

// heapObjects returns the bytes of live and not-yet-swept heap objects.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkSoak is the reliability soak, not a speed measurement: mixed Get
// and Put from 4xGOMAXPROCS goroutines — pool.Pool objects and bytepool
// slices of random log-uniform sizes up to 256 KiB — while another goroutine
// forces GC cycles and a memory limit keeps the heap goal near GOMEMLIMIT
// part of the time. It fails if an object is ever held by two goroutines at
// once, if the byte pool's idle bytes exceed its budget, or if the heap does
// not return to its baseline after the load stops. Run it for as long as
// you like:
//
//	go test -run '^$' -bench Soak -benchtime 1x -soak 10m .
func BenchmarkSoak(b *testing.B) {
	for b.Loop() {
		soak(b, *soakDuration)
	}
}

type soakObj struct {
	held atomic.Bool
	data [256]byte
}

func soak(b *testing.B, dur time.Duration) {
	const budget = 8 << 20
	objs := pool.Pool[*soakObj]{New: func() *soakObj { return new(soakObj) }, MinIdle: 64, MaxIdle: 4096}
	bp := &bytepool.Pool{MaxBytes: budget, MaxSize: 256 << 10}

	runtime.GC()
	runtime.GC()
	base := heapObjects()
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(oldLimit)

	var (
		stop                  atomic.Bool
		ops, twice, overBytes atomic.Int64
		maxIdleBytes          atomic.Int64
		gcs                   atomic.Int64
		wg                    sync.WaitGroup
	)
	// GC and memory-limit driver: every 10ms a forced GC; every other
	// second the limit sits just above the live heap (memory pressure).
	wg.Go(func() {
		for i := 0; !stop.Load(); i++ {
			runtime.GC()
			gcs.Add(1)
			if i%100 == 0 {
				if (i/100)%2 == 1 {
					debug.SetMemoryLimit(int64(heapObjects()) + 4<<20)
				} else {
					debug.SetMemoryLimit(math.MaxInt64)
				}
			}
			// While the pool is in use, Stats sums per-P budget credit
			// and the free budget at slightly different instants, so a
			// sample may read high by the credit in motion (at most
			// MaxBytes/4 in all); the exact check is at quiescence below.
			if s := bp.Stats(); s.IdleBytes > budget+budget/4 {
				overBytes.Add(1)
				b.Logf("idle bytes %d > budget %d + 25%%", s.IdleBytes, budget)
			} else if s.IdleBytes > maxIdleBytes.Load() {
				maxIdleBytes.Store(s.IdleBytes)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	workers := 4 * runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			token := uint64(w + 1)
			var held []*soakObj
			var slices [][]byte
			for !stop.Load() {
				switch rng.IntN(4) {
				case 0: // take an object
					o := objs.Get()
					if !o.held.CompareAndSwap(false, true) {
						twice.Add(1)
					}
					held = append(held, o)
				case 1: // return an object
					if len(held) > 0 {
						o := held[len(held)-1]
						held = held[:len(held)-1]
						o.held.Store(false)
						objs.Put(o)
					}
				case 2: // take a slice, log-uniform 8 B .. 256 KiB, and mark it ours
					n := int(math.Exp2(3 + rng.Float64()*15))
					s := bp.Get(n)
					if len(s) >= 8 {
						binary.LittleEndian.PutUint64(s, token)
					}
					slices = append(slices, s)
				case 3: // check our mark is intact, then return the slice
					if len(slices) > 0 {
						s := slices[len(slices)-1]
						slices = slices[:len(slices)-1]
						if len(s) >= 8 && binary.LittleEndian.Uint64(s) != token {
							twice.Add(1) // someone else wrote into our slice
						}
						bp.Put(s)
					}
				}
				if len(held) > 32 || len(slices) > 32 {
					for _, o := range held {
						o.held.Store(false)
						objs.Put(o)
					}
					for _, s := range slices {
						bp.Put(s)
					}
					held, slices = held[:0], slices[:0]
				}
				ops.Add(1)
			}
			for _, o := range held {
				o.held.Store(false)
				objs.Put(o)
			}
			for _, s := range slices {
				bp.Put(s)
			}
		})
	}
	time.Sleep(dur)
	stop.Store(true)
	wg.Wait()
	debug.SetMemoryLimit(math.MaxInt64)
	if idle := bp.Stats().IdleBytes; idle > budget {
		b.Fatalf("bytepool idle bytes at quiescence: %d; want <= budget %d", idle, budget)
	}

	// After the load: a few GC cycles release what the pools hold beyond
	// MinIdle; the heap must come back to the baseline, give or take the
	// MinIdle objects and 4 MiB of runtime noise.
	for range 6 {
		pool.GCAndTrim()
	}
	after := heapObjects()
	allowed := base + 64*uint64(256+32) + 4<<20

	if n := twice.Load(); n != 0 {
		b.Fatalf("%d times an object or slice was held by two goroutines at once", n)
	}
	if n := overBytes.Load(); n != 0 {
		b.Fatalf("bytepool idle bytes exceeded the %d-byte budget in %d samples", budget, n)
	}
	if after > allowed {
		b.Fatalf("heap after the load: %d bytes; want <= %d (baseline %d)", after, allowed, base)
	}
	b.ReportMetric(float64(ops.Load()), "ops")
	b.ReportMetric(float64(gcs.Load()), "forced-GCs")
	b.ReportMetric(float64(maxIdleBytes.Load())/(1<<20), "max-idle-MiB")
	b.ReportMetric(float64(base)/(1<<20), "heap-before-MiB")
	b.ReportMetric(float64(after)/(1<<20), "heap-after-MiB")
	b.ReportMetric(0, "held-twice")
}
