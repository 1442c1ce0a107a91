package advise

import (
	"math"
	"slices"
	"testing"
)

// TestGCCPU: the unforced trace lines are summed without the idle
// workers' time, and removed from the output.
func TestGCCPU(t *testing.T) {
	out := []byte("gc 1 @0.010s 2%: 0.015+0.50+0.003 ms clock, 0.030+0.20/0.40/9.0+0.006 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n" +
		"gc 2 @0.020s 2%: 0.015+0.50+0.003 ms clock, 0.030+0.20/0.40/9.0+0.006 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)\n" +
		"log: a line the benchmark wrote\n")
	ns, rest := gcCPU(out)
	want := (0.030 + 0.20 + 0.40 + 0.006) * 1e6
	if math.Abs(ns-want) > 1 {
		t.Errorf("got %v ns; want %v", ns, want)
	}
	if string(rest) != "log: a line the benchmark wrote\n" {
		t.Errorf("got %q after removing the trace; want the benchmark's own line", rest)
	}
}

func TestSplitFlags(t *testing.T) {
	test, build := splitFlags([]string{"-benchtime", "200x", "-count=3", "-tags", "foo", "-short", "-race", "-cpu", "1,2"})
	wantTest := []string{"-test.benchtime", "200x", "-test.count=3", "-test.short", "-test.cpu", "1,2"}
	wantBuild := []string{"-tags", "foo", "-race"}
	if !slices.Equal(test, wantTest) || !slices.Equal(build, wantBuild) {
		t.Errorf("got test %q, build %q; want %q, %q", test, build, wantTest, wantBuild)
	}
}

func TestSplitPattern(t *testing.T) {
	for _, c := range []struct{ in, top, rest string }{
		{".", ".", ""},
		{"Gzip/small", "Gzip", "small"},
		{"Gzip/a/b", "Gzip", "a/b"},
		{"[/]x/y", "[/]x", "y"},
		{"(a/b)/c", "(a/b)", "c"},
		{`a\/b/c`, `a\/b`, "c"},
	} {
		if top, rest := splitPattern(c.in); top != c.top || rest != c.rest {
			t.Errorf("splitPattern(%q) = %q, %q; want %q, %q", c.in, top, rest, c.top, c.rest)
		}
	}
}

// TestBenchOutput: the processes' outputs read as one go test run.
func TestBenchOutput(t *testing.T) {
	one := "goos: linux\ngoarch: amd64\npkg: x\ncpu: y\nBenchmarkA-2\t 10\t 5 ns/op\nPASS\n"
	two := "goos: linux\ngoarch: amd64\npkg: x\ncpu: y\nBenchmarkB-2\t 20\t 6 ns/op\nPASS\n"
	got := string(benchOutput([]byte(one), true, false)) + string(benchOutput([]byte(two), false, true))
	want := "goos: linux\ngoarch: amd64\npkg: x\ncpu: y\nBenchmarkA-2\t 10\t 5 ns/op\nBenchmarkB-2\t 20\t 6 ns/op\nPASS\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSavingCap checks that a site tied to a benchmark can save at most
// that benchmark's whole time: on a loaded machine the model estimated
// 111% for a small []byte site and ranked it above the gzip.Writer (a CI
// failure of TestBench on 2026-11-23).
func TestSavingCap(t *testing.T) {
	a := &siteAgg{allocBytes: 1000, benchBytes: map[string]float64{"BenchmarkSink": 500}}
	benches := map[string]*benchSum{"BenchmarkSink": {runBytes: 4000, runNs: 8000, profBytes: 1000}}
	// Half the site's bytes are the benchmark's; the profile holds a
	// quarter of the run's bytes: saving s ns of the profile is s*0.5*4
	// ns of the run, so the run's 8000 ns cap the saving at 4000.
	if got := savingCap(a, benches); got != 4000 {
		t.Errorf("savingCap = %v; want 4000", got)
	}
	if got := savingCap(&siteAgg{allocBytes: 1000}, nil); !math.IsInf(got, 1) {
		t.Errorf("savingCap without a benchmark = %v; want +Inf", got)
	}
}
