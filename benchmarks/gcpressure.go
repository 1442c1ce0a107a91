package benchmarks

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"runtime"
)

// gcWriters is how many flate writers one gcpressure round holds: 200
// writers are 160 MB of compressor state, enough for the GC to matter and
// few enough for a round to take about 0.1 s, so that poolbench can run the
// five rounds per strategy its statistics need (1000 took 0.7 s a round).
const gcWriters = 200

// gcpressure takes 200 flate writers (about 800 KB of compressor state
// each), compresses a log line with each, returns them all, and forces
// two GC cycles: one round per operation, the life of a service that
// collects garbage often. sync.Pool and pool.Pool without MinIdle release
// idle objects after two cycles, so every round rebuilds every writer
// (hit ratio 0); MinIdle and the free lists keep them (hit ratio 1).
// Here the harness does not avoid GC: the workload forces it.
var _ = register(newGCPressure(gcWriters))

// newGCPressure returns the workload with n writers per round (tests use
// fewer than gcWriters).
func newGCPressure(n int) *Workload {
	k := kit[*flate.Writer]{
		new: func() *flate.Writer {
			w, err := flate.NewWriter(io.Discard, flate.DefaultCompression)
			if err != nil {
				panic("gcpressure: " + err.Error())
			}
			return w
		},
		reset:   func(w *flate.Writer) { w.Reset(io.Discard) },
		maxIdle: n,
	}
	mk := func(src source[*flate.Writer], out io.Writer) (func(int), func()) {
		return gcpressureOp(src, out, n), nil
	}
	return &Workload{
		Name:      "gcpressure",
		Doc:       fmt.Sprintf("%d flate writers taken, returned, two forced GCs per round: hit ratio", n),
		GetsPerOp: n,
		Metric:    "hit-ratio",
		// Pooling pays when it reuses writers and allocates less than
		// alloc; the pools that do are ranked on reuse alone: a few
		// dozen small allocations per round (a pool's bookkeeping across
		// two GC cycles) next to 3400 are no reason to pick another pool.
		Gate:     []string{"hit-ratio", "allocs/op"},
		Baseline: "syncpool",
		Project:  []string{"poolminidle", "pool"},
		Strategies: k.strategies(mk, Strategy{
			Name: "poolminidle", Doc: "pool.Pool[T] with MinIdle set to the writers of a round",
			New: func(out io.Writer) Instance {
				s := newPoolSource(k, n)
				return Instance{Op: gcpressureOp(s, out, n), Misses: s.Misses}
			},
		}),
	}
}

func gcpressureOp(src source[*flate.Writer], out io.Writer, n int) func(int) {
	held := make([]*flate.Writer, n)
	var dst bytes.Buffer
	var line bytes.Buffer
	return func(i int) {
		for k := range held {
			line.Reset()
			writeLogLine(&line, i*n+k)
			dst.Reset()
			w := src.Get()
			w.Reset(&dst)
			if _, err := w.Write(line.Bytes()); err != nil {
				panic("gcpressure: " + err.Error())
			}
			if err := w.Close(); err != nil {
				panic("gcpressure: " + err.Error())
			}
			if out != nil {
				out.Write(dst.Bytes())
			}
			held[k] = w
		}
		for k, w := range held {
			src.Put(w)
			held[k] = nil
		}
		runtime.GC()
		runtime.GC()
	}
}
