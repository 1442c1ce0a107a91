package advise

import (
	"bytes"
	"math"
	"testing"
)

// TestGCCPU: the trace lines are summed without the idle workers' time,
// and removing them mends the benchmark line they interrupted.
func TestGCCPU(t *testing.T) {
	out := []byte("BenchmarkGzip-2    \tgc 1 @0.010s 2%: 0.015+0.50+0.003 ms clock, 0.030+0.20/0.40/9.0+0.006 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n" +
		"gc 2 @0.020s 2%: 0.015+0.50+0.003 ms clock, 0.030+0.20/0.40/9.0+0.006 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)\n" +
		"     200\t    390074 ns/op\t  814096 B/op\t      20 allocs/op\nPASS\n")
	ns, byBench, rest := gcCPU(out)
	want := (0.030 + 0.20 + 0.40 + 0.006) * 1e6
	if math.Abs(ns-want) > 1 {
		t.Errorf("got %v ns; want %v", ns, want)
	}
	if got := byBench["BenchmarkGzip"]; math.Abs(got-want) > 1 || len(byBench) != 1 {
		t.Errorf("got %v by benchmark; want all %v for BenchmarkGzip", byBench, want)
	}
	got := ParseBench(bytes.NewReader(rest))
	if len(got) != 1 || got[0].N != 200 || got[0].BytesPerOp != 814096 {
		t.Errorf("got %+v from %q; want the BenchmarkGzip line", got, rest)
	}
}
