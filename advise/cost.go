package advise

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/poolkit/pool"
)

// Costs is the cost model behind the estimated benefit of pooling a site.
//
// Pooling an allocation site saves, per object the site allocates, the
// time an allocation of that size costs (AllocNs, interpolated by size:
// mallocgc, zeroing, page faults on fresh memory, as measured by a loop
// that allocates and drops objects of that size, the GC running on an
// almost empty heap), and costs, per object constructed, one Get+Put (RoundTripNs) plus
// the object's Reset. A Reset whose cost is not known to be constant is
// taken to clear every byte the object holds, at ClearNsPerByte.
//
// Every allocated byte also brings GC work, which grows with the live heap
// of the program: GCNsPerByte, measured from the GC trace of the user's
// own benchmark run in -bench mode (GC CPU time / bytes allocated).
//
//	saving = Σ objects(size)·AllocNs(size) + bytes·GCNsPerByte − constructions·(RoundTripNs + reset)
type Costs struct {
	Sizes          []int     // object sizes, ascending
	AllocNs        []float64 // ns per allocation of Sizes[i] bytes
	ClearNsPerByte float64   // ns per byte to clear warm memory
	RoundTripNs    float64   // ns per pool.Pool Get+Put
	GCNsPerByte    float64   // GC CPU time per allocated byte, beyond what AllocNs includes
	Source         string    // where the figures come from
	GCSource       string    // where GCNsPerByte comes from
}

// DefaultCosts are the built-in figures, rounded from allocation
// benchmarks on the 2-core linux/amd64 machine poolkit's CI runs on (Go
// 1.26) under load, taking values near the lowest seen; docs/advise.md
// says how they compare with Calibrate's.
func DefaultCosts() *Costs {
	return &Costs{
		Sizes:          []int{16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20},
		AllocNs:        []float64{19, 33, 80, 250, 900, 3600, 14000, 56000, 250000},
		ClearNsPerByte: 0.06,
		RoundTripNs:    12,
		GCNsPerByte:    0.1,
		Source:         "built-in constants (rounded from allocation benchmarks on a 2-core linux/amd64 machine, Go 1.26; see docs/advise.md)",
		GCSource:       "built-in: the median of the programs measured in docs/advise.md",
	}
}

// Alloc returns the cost in ns of allocating one object of size bytes.
func (c *Costs) Alloc(size float64) float64 {
	s := c.Sizes
	if size <= float64(s[0]) {
		return c.AllocNs[0]
	}
	for i := 1; i < len(s); i++ {
		if size <= float64(s[i]) {
			f := (size - float64(s[i-1])) / float64(s[i]-s[i-1])
			return c.AllocNs[i-1] + f*(c.AllocNs[i]-c.AllocNs[i-1])
		}
	}
	last := len(s) - 1
	return c.AllocNs[last] * size / float64(s[last])
}

// String describes the model and its figures in one paragraph.
func (c *Costs) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model: saving = Σ objects × alloc(size) + bytes × GC/byte − constructions × (Get+Put + Reset); ")
	fmt.Fprintf(&b, "alloc(size) =")
	for i, s := range c.Sizes {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s:%s", fmtBytes(float64(s)), fmtNs(c.AllocNs[i]))
	}
	fmt.Fprintf(&b, "; GC/byte = %.3g ns (%s); Get+Put = %s; a Reset not known to be O(1) clears the object's bytes at %.3f ns/B; %s",
		c.GCNsPerByte, c.GCSource, fmtNs(c.RoundTripNs), c.ClearNsPerByte, c.Source)
	return b.String()
}

// Sinks of the calibration loops: written only, so that what is measured
// escapes to the heap, as the program's allocations do.
var (
	sinkBytes []byte
	sinkBuf   *bytes.Buffer
)

// Calibrate measures the cost model on this machine. It takes about half a
// second. Each figure is the fastest of five short runs, which filters out
// most of the noise of a shared machine.
func Calibrate() *Costs {
	c := DefaultCosts()
	best := func(run func() float64) float64 {
		m := run()
		for range 4 {
			m = min(m, run())
		}
		return m
	}
	const window = 8 * time.Millisecond
	// The GC runs, with an almost empty heap: what it costs at the
	// minimum heap size (4 MB) is in AllocNs; what a program's live heap
	// adds is GCNsPerByte.
	runtime.GC()
	for i, size := range c.Sizes {
		c.AllocNs[i] = best(func() float64 {
			defer func() { sinkBytes = nil }()
			n := 0
			start := time.Now()
			for time.Since(start) < window {
				for range 16 {
					sinkBytes = make([]byte, size)
				}
				n += 16
			}
			return float64(time.Since(start).Nanoseconds()) / float64(n)
		})
	}
	p := make([]byte, 256<<10)
	c.ClearNsPerByte = best(func() float64 {
		n := 0
		start := time.Now()
		for time.Since(start) < window {
			clear(p)
			n++
		}
		return float64(time.Since(start).Nanoseconds()) / float64(n*len(p))
	})
	var bufs = pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}
	c.RoundTripNs = best(func() float64 {
		n := 0
		start := time.Now()
		for time.Since(start) < window {
			for range 64 {
				b := bufs.Get()
				sinkBuf = b
				bufs.Put(b)
			}
			n += 64
		}
		return float64(time.Since(start).Nanoseconds()) / float64(n)
	})
	sinkBuf = nil
	// Allocation costs cannot decrease with size; smooth out noise.
	for i := 1; i < len(c.AllocNs); i++ {
		c.AllocNs[i] = max(c.AllocNs[i], c.AllocNs[i-1])
	}
	c.Source = "calibrated on this machine just now (fastest of 5 runs of 8 ms each)"
	return c
}

// unit is one step of a scale: values of at least div are printed
// divided by div, followed by suffix.
type unit struct {
	div    float64
	suffix string
}

// fmtScaled prints v with 3 significant digits in the first unit (largest
// first) that fits, else with base.
func fmtScaled(v float64, units []unit, base string) string {
	a := v
	if a < 0 {
		a = -a
	}
	for _, u := range units {
		if a >= u.div {
			return fmt.Sprintf("%.3g%s", v/u.div, u.suffix)
		}
	}
	return fmt.Sprintf(base, v)
}

var (
	nsUnits    = []unit{{1e9, " s"}, {1e6, " ms"}, {1e3, " µs"}}
	byteUnits  = []unit{{1 << 30, " GiB"}, {1 << 20, " MiB"}, {1 << 10, " KiB"}}
	countUnits = []unit{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}}
)

func fmtNs(ns float64) string   { return fmtScaled(ns, nsUnits, "%.3g ns") }
func fmtBytes(b float64) string { return fmtScaled(b, byteUnits, "%.0f B") }
func fmtCount(n float64) string { return fmtScaled(n, countUnits, "%.0f") }

// quantile returns the q-quantile of sizes weighted by counts.
func quantile(sizes map[int64]float64, q float64) int64 {
	if len(sizes) == 0 {
		return 0
	}
	ks := make([]int64, 0, len(sizes))
	total := 0.0
	for k, w := range sizes {
		ks = append(ks, k)
		total += w
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	acc := 0.0
	for _, k := range ks {
		acc += sizes[k]
		if acc >= q*total {
			return k
		}
	}
	return ks[len(ks)-1]
}
