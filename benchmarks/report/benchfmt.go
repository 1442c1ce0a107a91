package report

import (
	"fmt"
	"io"
	"strconv"
)

// WriteBenchfmt writes rep in the Go benchmark format, one line per run,
// named as the go test benchmarks of the benchmarks module
// (BenchmarkLogline/strategy=alloc-2), so benchstat can read poolbench's
// and go test's results alike. A unit a strategy cannot observe
// (hit-ratio) is left out of its lines.
func WriteBenchfmt(w io.Writer, rep *Report) error {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/poolkit/pool/benchmarks\n", rep.GOOS, rep.GOARCH)
	fmt.Fprintf(w, "go: %s\nnote: poolbench -count=%d -time=%s -cap=%s\n", rep.GoVersion, rep.Count, rep.Time, rep.Cap)
	for _, r := range rep.Results {
		for _, s := range r.Strategies {
			for _, m := range s.Runs {
				fmt.Fprintf(w, "Benchmark%s/strategy=%s-%d\t%d", r.Bench, s.Name, r.Procs, m.Ops)
				for _, u := range Units {
					if v := Value(m, u); v == v { // not NaN
						fmt.Fprintf(w, "\t%s %s", strconv.FormatFloat(v, 'g', 6, 64), u)
					}
				}
				if _, err := fmt.Fprintln(w); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
