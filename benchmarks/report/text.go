package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// columns are the table's headings, one per unit of Units.
var columns = map[string]string{
	"ns/op": "ns/op", "B/op": "B/op", "allocs/op": "allocs/op",
	"hit-ratio": "hit ratio", "retained-B": "retained", "gc/Mop": "GC/Mop",
}

// WriteTable writes r as a text table (median ± half the confidence
// interval as a percentage of it, as benchstat does) and its verdict.
func WriteTable(w io.Writer, r *Result) {
	runs := 0
	if len(r.Strategies) > 0 {
		runs = len(r.Strategies[0].Runs)
	}
	fmt.Fprintf(w, "%s — %s (GOMAXPROCS=%d, median ± %.0f%% CI of %d runs)\n", r.Workload, r.Doc, r.Procs, Confidence*100, runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "strategy\t")
	for _, u := range Units {
		fmt.Fprintf(tw, "%s\t", columns[u])
	}
	fmt.Fprintln(tw)
	for i := range r.Strategies {
		s := &r.Strategies[i]
		fmt.Fprintf(tw, "%s\t", s.Name)
		for _, u := range Units {
			fmt.Fprintf(tw, "%s\t", s.Stat(u).String())
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(w, "verdict: %s\n\n", r.Verdict.Text)
}

// String formats the median and the confidence interval's half-width as
// a percentage ("412 ±3%"); "-" for a nil Stat.
func (s *Stat) String() string {
	if s == nil {
		return "-"
	}
	return FormatValue(s.Unit, s.Median) + " " + s.Pct()
}

// Pct is the confidence interval as ± the larger distance of its bounds
// from the median, in percent of it: "±3%", "±∞" without an interval,
// "±0%" for an exact median of 0.
func (s *Stat) Pct() string {
	if s.Lo == nil || s.Hi == nil {
		return "±∞"
	}
	if s.Median == 0 {
		if *s.Lo == 0 && *s.Hi == 0 {
			return "±0%"
		}
		return "±?"
	}
	d := math.Max(math.Abs(*s.Hi-s.Median), math.Abs(s.Median-*s.Lo)) / math.Abs(s.Median)
	return fmt.Sprintf("±%.0f%%", 100*d)
}

// FormatValue formats v in unit for people: bytes with binary prefixes,
// ratios with two decimals, others with 3 significant digits.
func FormatValue(unit string, v float64) string {
	switch unit {
	case "B/op", "retained-B":
		return formatBytes(v)
	case "hit-ratio":
		return fmt.Sprintf("%.2f", v)
	case "allocs/op":
		if v != 0 && math.Abs(v) < 0.01 {
			return fmt.Sprintf("%.2g", v)
		}
		return fmt.Sprintf("%.2f", v)
	}
	return strings.TrimSuffix(fmt.Sprintf("%.3g", v), ".0")
}

func formatBytes(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1<<30:
		return fmt.Sprintf("%.3gGiB", v/(1<<30))
	case a >= 1<<20:
		return fmt.Sprintf("%.3gMiB", v/(1<<20))
	case a >= 1<<10:
		return fmt.Sprintf("%.3gKiB", v/(1<<10))
	}
	return fmt.Sprintf("%.3gB", v)
}
