package advise

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// BenchResult is one line of `go test -bench -benchmem` output.
type BenchResult struct {
	Name        string  // BenchmarkX/sub, without the -GOMAXPROCS suffix
	N           int64   // iterations of the final run
	NsPerOp     float64 // ns/op
	BytesPerOp  float64 // B/op
	AllocsPerOp float64 // allocs/op
}

// ParseBench reads benchmark result lines from go test output.
func ParseBench(r io.Reader) []BenchResult {
	var out []BenchResult
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		br := BenchResult{Name: trimProcs(f[0]), N: n}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				br.NsPerOp = v
			case "B/op":
				br.BytesPerOp = v
			case "allocs/op":
				br.AllocsPerOp = v
			}
		}
		out = append(out, br)
	}
	return out
}

// benchSum is what the benchmark output says about one top-level
// benchmark function (sub-benchmarks summed).
type benchSum struct {
	runBytes  float64 // Σ N·B/op over the final runs
	runNs     float64 // Σ N·ns/op over the final runs
	runOps    float64 // Σ N
	profBytes float64 // bytes the profile attributes to the function
	single    bool    // one result line: per-op figures make sense
	nsPerOp   float64
}

func summarizeBench(results []BenchResult, profBytes map[string]float64) map[string]*benchSum {
	m := map[string]*benchSum{}
	for _, r := range results {
		top := strings.SplitN(r.Name, "/", 2)[0]
		b := m[top]
		if b == nil {
			b = &benchSum{single: true}
			m[top] = b
		} else {
			b.single = false
		}
		b.runBytes += float64(r.N) * r.BytesPerOp
		b.runNs += float64(r.N) * r.NsPerOp
		b.runOps += float64(r.N)
		b.nsPerOp = r.NsPerOp
	}
	for k, b := range m {
		b.profBytes = profBytes[k]
	}
	return m
}

// Run is a benchmark run made by RunBench.
type Run struct {
	Profile string        // path of the heap profile, in a temporary directory the caller removes
	Results []BenchResult // the benchmark results
	Output  []byte        // go test's output, without the GC trace
	GCCPUNs float64       // CPU time the GC spent during the run (GODEBUG=gctrace=1), in ns

	// GCByBench is GCCPUNs by top-level benchmark ("BenchmarkX"); "" for
	// what ran before the first benchmark.
	GCByBench map[string]float64
}

// gcLine matches a line of GODEBUG=gctrace=1 output.
var gcLine = regexp.MustCompile(`gc \d+ @[0-9.]+s [0-9]+%: [^\n]*\n`)

// trimProcs removes the -GOMAXPROCS suffix of a benchmark name.
func trimProcs(name string) string {
	if i := strings.LastIndex(name, "-"); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

// benchName matches the name go test prints before running a benchmark.
var benchName = regexp.MustCompile(`(?m)^(Benchmark[^\s/]*)[^\s]*\s+\t`)

// gcCPU sums the CPU time of the GC trace lines in out, in ns (cycles the
// allocations caused: not forced ones), in all and by top-level benchmark
// (the one whose name was printed last before the line: go test prints the
// name, then runs the benchmark), and returns out without the trace. A
// trace line may interrupt a benchmark result line ("BenchmarkX-2
// \tgc 3 @...\n   200\t 390074 ns/op"): removing it mends it.
func gcCPU(out []byte) (total float64, byBench map[string]float64, rest []byte) {
	byBench = map[string]float64{}
	names := benchName.FindAllSubmatchIndex(out, -1)
	for _, loc := range gcLine.FindAllIndex(out, -1) {
		m := out[loc[0]:loc[1]]
		if bytes.Contains(m, []byte("(forced)")) {
			continue // testing calls runtime.GC before each run: not the program's cost
		}
		ns := 0.0
		for _, part := range strings.Split(string(m), ", ") {
			if !strings.HasSuffix(part, " ms cpu") {
				continue
			}
			// stw + assist/background/idle + stw: idle workers only
			// soak up idle CPU, they cost the program nothing.
			for _, f := range strings.Split(strings.TrimSuffix(part, " ms cpu"), "+") {
				if ab := strings.Split(f, "/"); len(ab) == 3 {
					f = ab[0] + "+" + ab[1]
				}
				for _, g := range strings.Split(f, "+") {
					if v, err := strconv.ParseFloat(g, 64); err == nil {
						ns += v * 1e6
					}
				}
			}
		}
		total += ns
		bench := ""
		for _, n := range names {
			if n[0] > loc[0] {
				break
			}
			bench = trimProcs(string(out[n[2]:n[3]]))
		}
		byBench[bench] += ns
	}
	return total, byBench, gcLine.ReplaceAll(out, nil)
}

// RunBench runs `go test -run '^$' -bench pattern -benchmem -memprofile` on
// pkg in dir, with GODEBUG=gctrace=1 to measure what the GC costs this
// program. Extra arguments (-benchtime, -count) are passed to go test
// before the package.
func RunBench(dir, pattern, pkg string, extra ...string) (*Run, error) {
	tmp, err := os.MkdirTemp("", "pooladvise")
	if err != nil {
		return nil, err
	}
	prof := filepath.Join(tmp, "mem.pprof")
	if pkg == "" {
		pkg = "."
	}
	// The GC trace is asked of the test binary only (through -exec), not
	// of the go command and the compiler it runs.
	godebug := "gctrace=1"
	if v := os.Getenv("GODEBUG"); v != "" {
		godebug = v + "," + godebug
	}
	args := []string{"test", "-exec", "env GODEBUG=" + godebug, "-run", "^$", "-bench", pattern, "-benchmem", "-memprofile", prof}
	if runtime.GOOS == "windows" {
		args = append(args[:1], args[3:]...) // no env(1): GC/byte falls back to the default
	}
	args = append(args, extra...)
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Run()
	gc, byBench, out := gcCPU(buf.Bytes())
	if err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("pooladvise: go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if _, serr := os.Stat(prof); serr != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("pooladvise: go test wrote no profile (no benchmark matched %q?)\n%s", pattern, out)
	}
	return &Run{Profile: prof, Results: ParseBench(bytes.NewReader(out)), Output: out, GCCPUNs: gc, GCByBench: byBench}, nil
}
