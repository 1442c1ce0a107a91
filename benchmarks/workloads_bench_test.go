package benchmarks

import (
	"math"
	"testing"
)

// Each workload is a benchmark with one sub-benchmark per strategy,
// named strategy=NAME so that `benchstat -col /strategy` sets the
// strategies side by side. cmd/poolbench measures the same operations
// with its own loop (see Measure); these exist so that go test and
// benchstat work on the workloads directly, and so CI keeps them running
// (at -benchtime=1x).

func BenchmarkLogline(b *testing.B)    { benchWorkload(b, "logline") }
func BenchmarkReplicate(b *testing.B)  { benchWorkload(b, "replicate") }
func BenchmarkJSONDecode(b *testing.B) { benchWorkload(b, "jsondecode") }
func BenchmarkGzip(b *testing.B)       { benchWorkload(b, "gzip") }
func BenchmarkRows(b *testing.B)       { benchWorkload(b, "rows") }
func BenchmarkStackValue(b *testing.B) { benchWorkload(b, "stackvalue") }
func BenchmarkTinystruct(b *testing.B) { benchWorkload(b, "tinystruct") }
func BenchmarkGCPressure(b *testing.B) { benchWorkload(b, "gcpressure") }
func BenchmarkBloat(b *testing.B)      { benchWorkload(b, "bloat") }

// benchWorkload runs every strategy of the named workload. Besides ns/op,
// B/op and allocs/op it reports, through b.ReportMetric: mallocs/op (not
// rounded down as allocs/op is), hit-ratio (where observable), gc/Mop
// (GC cycles per million operations) and retained-B (live heap after the
// work and one GC cycle, minus before it).
//
// testing runs runtime.GC before every run of a sub-benchmark, which
// empties sync.Pool; each run therefore warms its fresh strategy up
// (up to 1000 objects taken) before the timer starts.
func benchWorkload(b *testing.B, name string) {
	w := Lookup(name)
	if w == nil {
		b.Fatalf("no workload %q", name)
	}
	for _, s := range w.Strategies {
		b.Run("strategy="+s.Name, func(b *testing.B) {
			b.ReportAllocs()
			ph := startPhase(&s)
			defer ph.close()
			inst, r := ph.inst, &ph.r
			warm := max(1, min(b.N, 1000/max(w.GetsPerOp, 1)))
			run(w, inst.Op, 0, warm)
			hits := startHits(w, inst)
			before := r.read()
			b.ResetTimer()
			run(w, inst.Op, warm, b.N)
			b.StopTimer()
			after := r.read()
			n := float64(b.N)
			b.ReportMetric(float64(after.objects-before.objects)/n, "mallocs/op")
			b.ReportMetric(float64(after.cycles-before.cycles)/n*1e6, "gc/Mop")
			if h := hits.ratio(b.N); !math.IsNaN(h) {
				b.ReportMetric(h, "hit-ratio")
			}
			b.ReportMetric(ph.retained(), "retained-B")
		})
	}
}
