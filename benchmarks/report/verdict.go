package report

import (
	"fmt"

	"golang.org/x/perf/benchmath"
)

// A Verdict says which strategy wins a workload, by how much, and whether
// the difference is statistically significant (a Mann-Whitney U test from
// benchmath at alpha 0.05). Only a significant difference gives a
// recommendation; otherwise Text says there is none.
type Verdict struct {
	Significant bool    `json:"significant"`
	Winner      string  `json:"winner"`  // lowest median of the metric
	Against     string  `json:"against"` // what it was compared with
	Ratio       float64 `json:"ratio"`   // Against's median / Winner's (≥ 1); 0 when unbounded (the winner's is ≤ 0)
	P           float64 `json:"p"`       // p-value of the comparison
	Text        string  `json:"text"`
}

// Decide compares the strategies of r on r.Metric (lower is better).
// When the winner is not the baseline it is compared with the baseline
// ("pool: 2.8x faster than alloc, 0 allocs/op — pool it"); when the
// baseline wins, the runner-up is compared with it ("tinystruct: pooling
// 1.6x slower — don't pool" when the baseline is alloc). When the
// baseline is itself a pool (bloat compares pools with sync.Pool), alloc
// is a reference in the table, not a contender.
func Decide(r *Result) Verdict {
	base := r.strategy(r.Baseline)
	if base == nil || base.sample(r.Metric) == nil {
		return Verdict{Text: fmt.Sprintf("%s: no verdict: baseline %s not measured", r.Workload, r.Baseline)}
	}
	var skip *Strategy
	if r.Baseline != "alloc" {
		skip = r.strategy("alloc")
	}
	best := r.best(skip, nil)
	v := Verdict{Winner: best.Name, Against: base.Name}
	other := best
	if best == base {
		other = r.best(skip, base)
		if other == nil {
			return Verdict{Text: fmt.Sprintf("%s: no verdict: only %s measured", r.Workload, base.Name)}
		}
		v.Against = other.Name
	}
	cmp := benchmath.AssumeNothing.Compare(base.sample(r.Metric), other.sample(r.Metric))
	v.P = cmp.P
	v.Significant = cmp.P < cmp.Alpha
	mb, mo := base.Stat(r.Metric).Median, other.Stat(r.Metric).Median
	if best == base {
		v.Ratio = ratio(mo, mb)
	} else {
		v.Ratio = ratio(mb, mo)
	}
	if !v.Significant {
		v.Text = fmt.Sprintf("%s: no significant difference between %s and %s (%v) — no verdict", r.Workload, best.Name, v.Against, cmp)
		return v
	}
	switch {
	case r.Metric == "ns/op" && best != base:
		rec := ""
		if base.Name == "alloc" {
			rec = " — pool it"
		}
		v.Text = fmt.Sprintf("%s: %s %s faster than %s, %s allocs/op%s", r.Workload, best.Name, times(v.Ratio), base.Name,
			FormatValue("allocs/op", best.Stat("allocs/op").Median), rec)
	case r.Metric == "ns/op" && base.Name == "alloc":
		v.Text = fmt.Sprintf("%s: pooling %s slower (best pooled: %s) — don't pool", r.Workload, times(v.Ratio), other.Name)
	case r.Metric == "ns/op":
		v.Text = fmt.Sprintf("%s: %s fastest, %s %s slower", r.Workload, base.Name, other.Name, times(v.Ratio))
	case best != base:
		v.Text = fmt.Sprintf("%s: %s %s less %s than %s (%s vs %s)", r.Workload, best.Name, times(v.Ratio), r.Metric, base.Name,
			FormatValue(r.Metric, mo), FormatValue(r.Metric, mb))
	default:
		v.Text = fmt.Sprintf("%s: %s lowest %s, %s %s more", r.Workload, base.Name, r.Metric, other.Name, times(v.Ratio))
	}
	return v
}

// best returns the strategy of r with the lowest median metric, other
// than skip and except; nil if none.
func (r *Result) best(skip, except *Strategy) *Strategy {
	var best *Strategy
	for i := range r.Strategies {
		s := &r.Strategies[i]
		if s == skip || s == except || s.Stat(r.Metric) == nil {
			continue
		}
		if best == nil || s.Stat(r.Metric).Median < best.Stat(r.Metric).Median {
			best = s
		}
	}
	return best
}

func (r *Result) strategy(name string) *Strategy {
	for i := range r.Strategies {
		if r.Strategies[i].Name == name {
			return &r.Strategies[i]
		}
	}
	return nil
}

// ratio is hi/lo; 0 (unbounded) when lo is not positive.
func ratio(hi, lo float64) float64 {
	if lo <= 0 {
		if hi <= 0 {
			return 1
		}
		return 0
	}
	return hi / lo
}

func times(r float64) string {
	if r == 0 {
		return "∞x"
	}
	if r >= 100 {
		return fmt.Sprintf("%.0fx", r)
	}
	return fmt.Sprintf("%.3gx", r)
}
