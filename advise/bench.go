package advise

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
		br := BenchResult{Name: f[0], N: n}
		if i := strings.LastIndex(br.Name, "-"); i > 0 {
			if _, err := strconv.Atoi(br.Name[i+1:]); err == nil {
				br.Name = br.Name[:i]
			}
		}
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

// RunBench runs `go test -run '^$' -bench regexp -benchmem -memprofile` on
// pkg in dir and returns the profile's path (in a temporary directory the
// caller removes), the benchmark results and the output. Extra arguments
// (-benchtime, -count) are passed to go test before the package.
func RunBench(dir, regexp, pkg string, extra ...string) (profPath string, results []BenchResult, out []byte, err error) {
	tmp, err := os.MkdirTemp("", "pooladvise")
	if err != nil {
		return "", nil, nil, err
	}
	profPath = filepath.Join(tmp, "mem.pprof")
	if pkg == "" {
		pkg = "."
	}
	args := []string{"test", "-run", "^$", "-bench", regexp, "-benchmem", "-memprofile", profPath}
	args = append(args, extra...)
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Run()
	out = buf.Bytes()
	if err != nil {
		os.RemoveAll(tmp)
		return "", nil, out, fmt.Errorf("pooladvise: go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if _, serr := os.Stat(profPath); serr != nil {
		os.RemoveAll(tmp)
		return "", nil, out, fmt.Errorf("pooladvise: go test wrote no profile (no benchmark matched %q?)\n%s", regexp, out)
	}
	return profPath, ParseBench(bytes.NewReader(out)), out, nil
}
