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

	"github.com/google/pprof/profile"
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
	Output  []byte        // the benchmarks' output, without the GC trace
	GCCPUNs float64       // CPU time the GC spent during the run (GODEBUG=gctrace=1), in ns

	// GCByBench is GCCPUNs by top-level benchmark ("BenchmarkX").
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

// gcCPU sums the CPU time of the GC trace lines in out, in ns (cycles the
// allocations caused: not forced ones), and returns out without the trace.
// Per cycle it counts stop-the-world plus assist and background marking;
// idle workers only soak up idle CPU, they cost the program nothing.
func gcCPU(out []byte) (total float64, rest []byte) {
	for _, loc := range gcLine.FindAllIndex(out, -1) {
		m := out[loc[0]:loc[1]]
		if bytes.Contains(m, []byte("(forced)")) {
			continue // testing calls runtime.GC before each run: not the program's cost
		}
		for _, part := range strings.Split(string(m), ", ") {
			if !strings.HasSuffix(part, " ms cpu") {
				continue
			}
			for _, f := range strings.Split(strings.TrimSuffix(part, " ms cpu"), "+") {
				if ab := strings.Split(f, "/"); len(ab) == 3 {
					f = ab[0] + "+" + ab[1]
				}
				for _, g := range strings.Split(f, "+") {
					if v, err := strconv.ParseFloat(g, 64); err == nil {
						total += v * 1e6
					}
				}
			}
		}
	}
	return total, gcLine.ReplaceAll(out, nil)
}

// testFlags are the go test flags RunBench passes to the test binary (as
// -test.name); the bool ones take no separate value.
var testFlags = map[string]bool{
	"benchtime": false, "count": false, "cpu": false, "timeout": false,
	"memprofilerate": false, "parallel": false,
	"short": true, "v": true, "failfast": true,
}

// splitFlags separates go test flags for the test binary from build flags.
func splitFlags(extra []string) (test, build []string) {
	for i := 0; i < len(extra); i++ {
		a := extra[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		isBool, ok := testFlags[name]
		if !strings.HasPrefix(a, "-") || !ok {
			build = append(build, a)
			continue
		}
		test = append(test, "-test."+strings.TrimLeft(a, "-"))
		if !isBool && !hasValue && i+1 < len(extra) {
			i++
			test = append(test, extra[i])
		}
	}
	return test, build
}

// splitPattern splits a -bench pattern at its first slash outside
// brackets and parentheses, as the testing package does: the top-level
// part and the rest ("" when there is none).
func splitPattern(p string) (top, rest string) {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '\\':
			i++
		case '/':
			if depth == 0 {
				return p[:i], p[i+1:]
			}
		}
	}
	return p, ""
}

// RunBench runs the benchmarks of pkg (in dir) matching pattern with
// -benchmem and a heap profile, and GODEBUG=gctrace=1 to measure what the
// GC costs this program. It builds the test binary once (go test -c) and
// runs each top-level benchmark in a process of its own, its GC trace read
// apart from its results, so every GC cycle is charged to the benchmark
// that caused it; the heap profiles are merged. Extra arguments are go test
// flags: -benchtime, -count, -cpu, -timeout, -memprofilerate, -parallel,
// -short, -v and -failfast go to the test binary, the rest (-tags, -race,
// ...) to the build.
//
// Output written to standard error by the benchmarks themselves is kept
// in Output; a line of it that lands inside a GC trace line spoils that
// line, whose cycle is then not counted.
func RunBench(dir, pattern, pkg string, extra ...string) (run *Run, err error) {
	tmp, err := os.MkdirTemp("", "pooladvise")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if pkg == "" {
		pkg = "."
	}
	testArgs, buildArgs := splitFlags(extra)
	bin := filepath.Join(tmp, "bench.test")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	args := append([]string{"test", "-c", "-o", bin}, buildArgs...)
	args = append(args, pkg)
	if out, err := goCmd(dir, args...); err != nil {
		return nil, fmt.Errorf("pooladvise: go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("pooladvise: %s has no test files", pkg)
	}
	// The test binary runs in the package's directory, as under go test.
	out, err := goCmd(dir, "list", "-f", "{{.Dir}}", pkg)
	if err != nil {
		return nil, fmt.Errorf("pooladvise: go list %s: %v\n%s", pkg, err, out)
	}
	pkgDir := strings.TrimSpace(string(out))

	top, rest := splitPattern(pattern)
	list := exec.Command(bin, "-test.list", top)
	list.Dir = pkgDir
	out, err = list.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pooladvise: %s -test.list %s: %v\n%s", pkg, top, err, out)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			names = append(names, strings.TrimSpace(l))
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("pooladvise: no benchmark in %s matches %q", pkg, pattern)
	}

	godebug := "gctrace=1"
	if v := os.Getenv("GODEBUG"); v != "" {
		godebug = v + "," + godebug
	}
	run = &Run{GCByBench: map[string]float64{}}
	var profs []*profile.Profile
	for i, name := range names {
		p := "^" + regexp.QuoteMeta(name) + "$"
		if rest != "" {
			p += "/" + rest
		}
		path := filepath.Join(tmp, fmt.Sprintf("mem%d.pprof", i))
		args := append([]string{"-test.run", "^$", "-test.bench", p, "-test.benchmem", "-test.memprofile", path}, testArgs...)
		cmd := exec.Command(bin, args...)
		cmd.Dir = pkgDir
		cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		gc, errOut := gcCPU(stderr.Bytes())
		if err != nil {
			return nil, fmt.Errorf("pooladvise: %s %s: %v\n%s%s", pkg, strings.Join(args, " "), err, stdout.Bytes(), errOut)
		}
		run.GCCPUNs += gc
		run.GCByBench[name] += gc
		run.Output = append(run.Output, benchOutput(stdout.Bytes(), i == 0, i == len(names)-1)...)
		run.Output = append(run.Output, errOut...)
		prof, err := readProfile(path)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			// Every process's profile holds what the package's
			// initialization allocated: count it once.
			prof = underBenchmark(prof)
		}
		profs = append(profs, prof)
	}
	merged, err := profile.Merge(profs)
	if err != nil {
		return nil, fmt.Errorf("pooladvise: merging the heap profiles: %v", err)
	}
	run.Profile = filepath.Join(tmp, "mem.pprof")
	f, err := os.Create(run.Profile)
	if err != nil {
		return nil, err
	}
	if err := merged.Write(f); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	run.Results = ParseBench(bytes.NewReader(run.Output))
	return run, nil
}

// goCmd runs the go command in dir and returns its combined output.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// benchOutput keeps the header lines (goos:, pkg:, ...) of the first
// process's output and the PASS of the last, so the runs read as one.
func benchOutput(out []byte, first, last bool) []byte {
	var b []byte
	for _, l := range bytes.SplitAfter(out, []byte("\n")) {
		s := string(l)
		header := strings.HasPrefix(s, "goos:") || strings.HasPrefix(s, "goarch:") || strings.HasPrefix(s, "pkg:") || strings.HasPrefix(s, "cpu:")
		if (header && !first) || (strings.TrimSpace(s) == "PASS" && !last) {
			continue
		}
		b = append(b, l...)
	}
	return b
}

func readProfile(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pooladvise: the test binary wrote no profile: %v", err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("pooladvise: %s: %v", path, err)
	}
	return p, nil
}

// underBenchmark keeps in p only the samples allocated under a benchmark
// (a testing.(*B) method on the stack) and returns it.
func underBenchmark(p *profile.Profile) *profile.Profile {
	kept := p.Sample[:0]
	for _, s := range p.Sample {
		if underB(s) {
			kept = append(kept, s)
		}
	}
	p.Sample = kept
	return p
}

func underB(s *profile.Sample) bool {
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil && strings.HasPrefix(ln.Function.Name, "testing.(*B).") {
				return true
			}
		}
	}
	return false
}
