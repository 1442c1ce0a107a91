package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/poolkit/pool/benchmarks"
)

// columns are the table's headings, one per unit of Units.
var columns = map[string]string{
	"ns/op": "time/op", "B/op": "B/op", "allocs/op": "allocs/op",
	"hit-ratio": "hit ratio", "retained-B": "retained", "gc/Mop": "GC/Mop",
}

// Legend explains the columns of the tables, in table order; the text
// output prints it once before the first table and the HTML report under
// its summary.
var Legend = [][2]string{
	{"figures", fmt.Sprintf("median of the runs ± half the width of its %.0f%% confidence interval, in %% of the median (golang.org/x/perf/benchmath); lo–hi when that would exceed 100%%", Confidence*100)},
	{"ratios", "in verdicts, Hodges–Lehmann estimates over all pairs of runs of two strategies (noise makes them differ from the ratio of the two medians)"},
	{"time/op", "wall time per operation (ns/op in the JSON and benchfmt outputs)"},
	{"B/op", "heap bytes allocated per operation"},
	{"allocs/op", "heap allocations per operation, not rounded (0.01 is one allocation every 100 operations)"},
	{"hit ratio", "share of the objects taken that the strategy reused instead of creating; - when the library does not say"},
	{"retained", fmt.Sprintf("live heap the strategy still holds after the work stopped and one GC cycle ran (what an idle service keeps); below %s it is noise and shows as <%s", formatBytes(benchmarks.RetainedFloor), formatBytes(benchmarks.RetainedFloor))},
	{"GC/Mop", "GC cycles per million operations, forced ones included"},
	{"*", "the strategy the verdict recommends (alloc when it says don't pool)"},
}

// Rules explains the verdicts in a few lines; the text output prints it
// after the legend.
var Rules = []string{
	"a strategy beats another when it is better on one of the workload's units and worse on none;",
	"better: the 95% interval of their ratio excludes 1 and the estimate is at least 5% (pooled vs alloc),",
	"or the 99% interval does and the estimate is at least 20% (another strategy vs the project's pool).",
	"pool it: X          some pool beats alloc; X is the project's pool unless it is shown worse than alloc or another beats it (then what it gives up)",
	"don't pool          no pooled strategy beats alloc",
	"inconclusive        the runs could not settle a comparison the verdict needs (-time/-count for more)",
}

// WriteLegend writes Legend and Rules as indented lines.
func WriteLegend(w io.Writer) {
	fmt.Fprintln(w, "columns:")
	for _, l := range Legend {
		fmt.Fprintf(w, "  %-10s %s\n", l[0], l[1])
	}
	fmt.Fprintln(w, "how verdicts are decided:")
	for _, l := range Rules {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintln(w)
}

// WriteTable writes r as a text table and its verdict.
func WriteTable(w io.Writer, r *Result) {
	fmt.Fprintf(w, "%s — %s (GOMAXPROCS=%d, %d runs per strategy in %.1fs)\n", r.Workload, r.Doc, r.Procs, r.Runs, r.Elapsed)
	rows := [][]string{{"strategy"}}
	for _, u := range Units {
		rows[0] = append(rows[0], columns[u])
	}
	for i := range r.Strategies {
		s := &r.Strategies[i]
		mark := "  "
		if s.Name == r.Verdict.Winner {
			mark = "* "
		}
		row := []string{mark + s.Name}
		for _, u := range Units {
			row = append(row, s.Stat(u).String())
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for k, row := range rows {
		var b strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0 && k == 0:
				b.WriteString("  " + c + pad[min(2, len(pad)):])
			case i == 0:
				b.WriteString(c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	fmt.Fprintf(w, "verdict: %s\n\n", r.Verdict.Text)
}

// WriteSummary writes one line per result: workload and verdict.
func WriteSummary(w io.Writer, rep *Report) {
	fmt.Fprintln(w, "verdicts:")
	for i := range rep.Results {
		r := &rep.Results[i]
		fmt.Fprintf(w, "  %-11s %s\n", r.Workload, Short(r))
	}
}

// Short is the verdict in a few words: "pool it: pool", "don't pool",
// "inconclusive: needs more time (-time/-count)".
func Short(r *Result) string {
	switch r.Verdict.Action {
	case ActPool:
		s := ActPool + ": " + r.Verdict.Winner
		if !r.Verdict.Resolved() {
			s += " (some comparisons inconclusive)"
		}
		return s
	case ActDontPool:
		return ActDontPool
	}
	if len(r.Verdict.Pending) == 0 {
		return r.Verdict.Text
	}
	return NeedsMoreTime
}

// String formats the median and its confidence interval: "412 ±3%",
// "4.01MiB 3.9MiB–8MiB" when the half-width would exceed 100%, "<64KiB"
// for retained heap below benchmarks.RetainedFloor, "-" for a nil Stat.
func (s *Stat) String() string {
	if s == nil {
		return "-"
	}
	if s.Unit == "retained-B" && s.Median < benchmarks.RetainedFloor {
		return "<" + formatBytes(benchmarks.RetainedFloor)
	}
	return FormatValue(s.Unit, s.Median) + " " + s.Pct()
}

// Pct is the confidence interval as ± the larger distance of its bounds
// from the median, in percent of it: "±3%"; "lo–hi" when that exceeds
// 100% or the median is 0 and the interval is not; "(n<6)" without an
// interval (benchmath needs 6 runs for one at 95%).
func (s *Stat) Pct() string {
	if s.Lo == nil || s.Hi == nil {
		return "(n<6)"
	}
	lo, hi := *s.Lo, *s.Hi
	if s.Unit == "retained-B" {
		lo = math.Max(lo, benchmarks.RetainedFloor)
	}
	if s.Median == 0 && lo == 0 && hi == 0 {
		return "±0%"
	}
	if s.Median != 0 {
		d := math.Max(math.Abs(hi-s.Median), math.Abs(s.Median-lo)) / math.Abs(s.Median)
		if d <= 1 {
			return fmt.Sprintf("±%.0f%%", 100*d)
		}
	}
	return FormatValue(s.Unit, lo) + "–" + FormatValue(s.Unit, hi)
}

// FormatValue formats v in unit for people: times with a unit ("412ns",
// "1.2ms"), bytes with binary prefixes, ratios with two decimals, others
// with 3 significant digits and no exponent.
func FormatValue(unit string, v float64) string {
	switch unit {
	case "B/op", "retained-B":
		return formatBytes(v)
	case "hit-ratio":
		return fmt.Sprintf("%.2f", v)
	case "ns/op":
		return formatNs(v)
	case "allocs/op":
		if v != 0 && math.Abs(v) < 0.01 {
			return fmt.Sprintf("%.2g", v)
		}
		if math.Abs(v) >= 100 {
			return fmt.Sprintf("%.0f", v)
		}
		return fmt.Sprintf("%.2f", v)
	}
	return sig3(v)
}

// sig3 formats v with 3 significant digits without an exponent:
// 0.0123, 1.23, 123, 12300, 1230000.
func sig3(v float64) string {
	a := math.Abs(v)
	if a == 0 {
		return "0"
	}
	digits := max(0, 2-int(math.Floor(math.Log10(a))))
	r := math.Pow(10, float64(digits))
	if digits == 0 {
		p := math.Pow(10, math.Floor(math.Log10(a))-2)
		v = math.Round(v/p) * p
	} else {
		v = math.Round(v*r) / r
	}
	return fmt.Sprintf("%.*f", digits, v)
}

func formatBytes(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1<<30:
		return trimZero(sig3(v/(1<<30))) + "GiB"
	case a >= 1<<20:
		return trimZero(sig3(v/(1<<20))) + "MiB"
	case a >= 1<<10:
		return trimZero(sig3(v/(1<<10))) + "KiB"
	}
	return trimZero(sig3(v)) + "B"
}
