package benchmarks

import (
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// A Measurement is one run of one strategy on one workload: the figures
// of its timed phase.
type Measurement struct {
	Ops         int     // operations in the timed phase
	NsPerOp     float64 // wall time / Ops
	BytesPerOp  float64 // heap bytes allocated / Ops
	AllocsPerOp float64 // heap allocations (mallocs, tiny ones included) / Ops, not rounded

	// HitRatio is the share of Gets served without creating an object;
	// NaN when the strategy cannot observe it.
	HitRatio float64

	// RetainedBytes is the live heap after the work stopped and one GC
	// cycle ran, minus the live heap before the work started (measured
	// once GC cycles no longer shrink it), or 0 if that is negative: what
	// the strategy keeps holding once the load is gone and the next GC
	// cycle has run. sync.Pool's victim cache counts: it is still held.
	// Differences below RetainedFloor are noise (runtime bookkeeping,
	// goroutine descriptors).
	RetainedBytes float64

	// GCPerMop is GC cycles (forced ones included) per million operations.
	GCPerMop float64
}

// RetainedFloor is the resolution of Measurement.RetainedBytes: the live
// heap of a process that does nothing moves by a few KiB between GC
// cycles (the runtime's own bookkeeping, descriptors of goroutines that
// ended), so retained heap below 64 KiB is reported as "<64KiB" and
// compared as 64 KiB.
const RetainedFloor = 64 << 10

// Options tunes Measure.
type Options struct {
	// Time is the target duration of the timed phase; at least one
	// operation runs. Default 200ms.
	Time time.Duration
	// Warmup is the duration of the warm-up phase, which fills the pools
	// and estimates the cost of an operation; at least one operation
	// runs. Default Time/4.
	Warmup time.Duration
}

// Measure runs one measurement of strategy s on workload w.
//
// Why not testing.Benchmark: it runs the function several times with a
// growing b.N and calls runtime.GC before each run, so a pool measured
// there starts every run empty (the harness's GC, not the workload,
// empties sync.Pool); its allocs/op is an integer division that rounds
// 0.9 to 0; and it cannot measure retained heap. Measure instead:
//
//  1. collects garbage twice (no earlier run's sync.Pool victims left),
//     creates fresh strategy state, and reads the live heap once GC
//     cycles no longer shrink it;
//  2. warms up: runs batches of operations, doubling, until Warmup has
//     passed, which fills the pools and estimates the cost of one;
//  3. runs the timed phase, Time/estimate operations spread over the
//     workload's goroutines, without any GC forced by the harness, and
//     reads runtime.MemStats before and after it: heap allocations
//     (Mallocs, tiny ones included), bytes and GC cycles;
//  4. stops the work, runs one GC cycle, and reads the live heap again:
//     RetainedBytes is the difference.
//
// The allocation counts are exact: ReadMemStats stops the world briefly
// (twice per phase, outside the timed part) and flushes every P's
// allocation cache first. runtime/metrics does not, and counts small
// allocations only when a P refills its cache, which left allocs/op off by
// up to a span's worth of objects per P (1.4% for 24-byte objects in a
// 20 ms phase on a loaded machine).
func Measure(w *Workload, s *Strategy, opt Options) Measurement {
	if opt.Time <= 0 {
		opt.Time = 200 * time.Millisecond
	}
	if opt.Warmup <= 0 {
		opt.Warmup = opt.Time / 4
	}
	runtime.GC()
	runtime.GC()
	ph := startPhase(s)
	defer ph.close()
	inst, r := ph.inst, &ph.r

	// Warm-up; next is the index of the next operation.
	next := 0
	start := time.Now()
	for batch := 1; ; batch *= 2 {
		run(w, inst.Op, next, batch)
		next += batch
		if time.Since(start) >= opt.Warmup || batch >= 1<<30 {
			break
		}
	}
	perOp := float64(time.Since(start)) / float64(next)
	n := int(math.Min(math.Max(float64(opt.Time)/perOp, 1), 1<<31))

	hits := startHits(w, inst)
	before := r.read()
	t0 := time.Now()
	run(w, inst.Op, next, n)
	elapsed := time.Since(t0)
	after := r.read()

	m := Measurement{
		Ops:         n,
		NsPerOp:     float64(elapsed.Nanoseconds()) / float64(n),
		BytesPerOp:  float64(after.bytes-before.bytes) / float64(n),
		AllocsPerOp: float64(after.objects-before.objects) / float64(n),
		GCPerMop:    float64(after.cycles-before.cycles) / float64(n) * 1e6,
		HitRatio:    hits.ratio(n),
	}
	m.RetainedBytes = ph.retained()
	return m
}

// phase is one strategy instance under measurement, shared by Measure and
// the go test benchmarks: it records the live heap before the instance
// does any work, so that retained can report what the instance keeps once
// its work has stopped.
type phase struct {
	inst       Instance
	r          reader
	liveBefore uint64
}

func startPhase(s *Strategy) *phase {
	ph := &phase{inst: s.New(nil)}
	ph.liveBefore = settledLive(&ph.r)
	return ph
}

// settledLive runs GC cycles until the live heap stops shrinking (at most
// four: sync.Pool needs two to drop what it holds, and finalizers and
// cleanups may free more in a third) and returns it.
func settledLive(r *reader) uint64 {
	runtime.GC()
	live := r.read().live
	for range 3 {
		runtime.GC()
		l := r.read().live
		if l >= live {
			return l
		}
		live = l
	}
	return live
}

// retained runs one GC cycle and returns how much the live heap grew since
// startPhase, or 0 if it shrank (a few KiB of runtime bookkeeping come and
// go; see RetainedFloor).
func (ph *phase) retained() float64 {
	runtime.GC()
	v := float64(ph.r.read().live) - float64(ph.liveBefore)
	runtime.KeepAlive(ph.inst)
	return math.Max(v, 0)
}

func (ph *phase) close() {
	if ph.inst.Close != nil {
		ph.inst.Close()
	}
}

// hitCounter computes the hit ratio of a phase of operations.
type hitCounter struct {
	w              *Workload
	inst           Instance
	gets0, misses0 uint64
}

// startHits records the counters at the start of a phase.
func startHits(w *Workload, inst Instance) hitCounter {
	h := hitCounter{w: w, inst: inst}
	if inst.Misses != nil {
		h.misses0 = inst.Misses()
	}
	if inst.Gets != nil {
		h.gets0 = inst.Gets()
	}
	return h
}

// ratio returns 1 - misses/gets over the n operations since startHits,
// clamped to [0, 1]: 0 for NoReuse, NaN when the strategy cannot say.
func (h hitCounter) ratio(n int) float64 {
	if h.inst.NoReuse {
		return 0
	}
	if h.inst.Misses == nil {
		return math.NaN()
	}
	gets := uint64(n) * uint64(max(h.w.GetsPerOp, 1))
	if h.inst.Gets != nil {
		// At least one Get per operation: a pooled object that keeps its
		// storage (bytepool.Buffer) serves operations without taking any.
		gets = max(gets, h.inst.Gets()-h.gets0)
	}
	if gets == 0 {
		return math.NaN()
	}
	return math.Max(0, 1-float64(h.inst.Misses()-h.misses0)/float64(gets))
}

// run performs n operations numbered from first, split evenly over the
// workload's goroutines.
func run(w *Workload, op func(int), first, n int) {
	g := w.Goroutines
	if g <= 1 {
		for i := first; i < first+n; i++ {
			op(i)
		}
		return
	}
	var wg sync.WaitGroup
	for k := range g {
		lo, hi := first+n*k/g, first+n*(k+1)/g
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				op(i)
			}
		})
	}
	wg.Wait()
}

// reader reads the heap statistics Measure needs.
type reader struct {
	ms runtime.MemStats
	s  []metrics.Sample
}

type heapStats struct {
	objects, bytes, cycles, live uint64
}

func (r *reader) read() heapStats {
	if r.s == nil {
		r.s = []metrics.Sample{{Name: "/gc/heap/live:bytes"}} // marked live by the last GC cycle
	}
	// ReadMemStats flushes the per-P allocation caches, so Mallocs and
	// TotalAlloc count every allocation made before the call.
	runtime.ReadMemStats(&r.ms)
	metrics.Read(r.s)
	return heapStats{
		objects: r.ms.Mallocs,
		bytes:   r.ms.TotalAlloc,
		cycles:  uint64(r.ms.NumGC),
		live:    r.s[0].Value.Uint64(),
	}
}
