// Package report turns poolbench's measurements into statistics (median
// and confidence interval from golang.org/x/perf/benchmath), a verdict per
// workload, and the text, JSON, Go benchmark format and HTML outputs.
package report

import (
	"encoding/json"
	"io"
	"math"
	"runtime"

	"github.com/poolkit/pool/benchmarks"
	"golang.org/x/perf/benchmath"
)

// Confidence is the level of the confidence intervals.
const Confidence = 0.95

// Units are the measured quantities, in table order, with the unit names
// used in the Go benchmark format.
var Units = []string{"ns/op", "B/op", "allocs/op", "hit-ratio", "retained-B", "gc/Mop"}

// A Report is everything one poolbench invocation measured.
type Report struct {
	GoVersion string   `json:"go_version"`
	GOOS      string   `json:"goos"`
	GOARCH    string   `json:"goarch"`
	NumCPU    int      `json:"num_cpu"`
	Count     int      `json:"count"`   // most runs per strategy (-count)
	Time      string   `json:"time"`    // target duration of each timed phase (-time)
	Cap       string   `json:"cap"`     // time cap per workload (-cap)
	Results   []Result `json:"results"` // one per workload and GOMAXPROCS value
}

// New returns an empty Report for the given settings: the most runs per
// strategy, the duration of a run and the time cap per workload.
func New(count int, time, cap string) *Report {
	return &Report{GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		NumCPU: runtime.NumCPU(), Count: count, Time: time, Cap: cap}
}

// A Result is one workload measured at one GOMAXPROCS.
type Result struct {
	Workload   string     `json:"workload"`
	Bench      string     `json:"bench"` // go test benchmark name without "Benchmark"
	Doc        string     `json:"doc"`
	Procs      int        `json:"gomaxprocs"`
	Metric     string     `json:"metric"`         // the unit the workload is about, judged first
	Also       []string   `json:"also,omitempty"` // other units the verdict judges
	Gate       []string   `json:"gate"`           // units on which pooling must beat alloc
	Baseline   string     `json:"baseline"`       // strategy the verdict quotes next to its recommendation
	Project    []string   `json:"project"`        // strategies built on this project's pools, in order of preference
	Runs       int        `json:"runs"`           // runs per strategy (the fewest, if they differ)
	Elapsed    float64    `json:"elapsed_s"`      // seconds spent measuring the workload
	Strategies []Strategy `json:"strategies"`
	Verdict    Verdict    `json:"verdict"`
}

// A Strategy holds the runs of one strategy and their statistics.
type Strategy struct {
	Name    string                   `json:"name"`
	Doc     string                   `json:"doc"`
	GivesUp string                   `json:"gives_up,omitempty"` // compared with the project's pools
	Project bool                     `json:"project"`            // built on this project's pools
	Runs    []benchmarks.Measurement `json:"-"`                  // in the order they ran
	Stats   []Stat                   `json:"stats"`
}

// A Stat summarizes one unit over the runs of a strategy.
type Stat struct {
	Unit   string  `json:"unit"`
	Median float64 `json:"median"`
	// Lo and Hi bound the confidence interval; nil when there are too
	// few runs for one (benchmath needs 6 at 95%).
	Lo         *float64  `json:"lo"`
	Hi         *float64  `json:"hi"`
	Confidence float64   `json:"confidence"`
	Values     []float64 `json:"values"` // ascending
}

// Stat returns the statistics of unit, or nil when the strategy has none
// (hit-ratio where the strategy cannot observe it).
func (s *Strategy) Stat(unit string) *Stat {
	for i := range s.Stats {
		if s.Stats[i].Unit == unit {
			return &s.Stats[i]
		}
	}
	return nil
}

// Value returns m's figure in unit; NaN when unknown.
func Value(m benchmarks.Measurement, unit string) float64 {
	switch unit {
	case "ns/op":
		return m.NsPerOp
	case "B/op":
		return m.BytesPerOp
	case "allocs/op":
		return m.AllocsPerOp
	case "hit-ratio":
		return m.HitRatio
	case "retained-B":
		return m.RetainedBytes
	case "gc/Mop":
		return m.GCPerMop
	}
	return math.NaN()
}

// NewResult builds the Result of workload w at procs from runs, keyed by
// strategy name (strategies without runs are left out), and decides its
// verdict.
func NewResult(w *benchmarks.Workload, procs int, runs map[string][]benchmarks.Measurement) Result {
	r := Result{Workload: w.Name, Bench: w.BenchName(), Doc: w.Doc, Procs: procs, Metric: w.Metric,
		Also: w.Also, Gate: w.GateUnits(), Baseline: w.Baseline, Project: w.Project}
	for _, s := range w.Strategies {
		ms := runs[s.Name]
		if len(ms) == 0 {
			continue
		}
		if r.Runs == 0 || len(ms) < r.Runs {
			r.Runs = len(ms)
		}
		st := Strategy{Name: s.Name, Doc: s.Doc, GivesUp: s.GivesUp, Project: w.IsProject(s.Name), Runs: ms}
		for _, u := range Units {
			if s := summarize(ms, u); s != nil {
				st.Stats = append(st.Stats, *s)
			}
		}
		r.Strategies = append(r.Strategies, st)
	}
	r.Verdict = Decide(&r)
	return r
}

// summarize returns the median and confidence interval of unit over ms,
// or nil if any run lacks the unit.
func summarize(ms []benchmarks.Measurement, unit string) *Stat {
	vs := make([]float64, len(ms))
	for i, m := range ms {
		vs[i] = Value(m, unit)
		if math.IsNaN(vs[i]) {
			return nil
		}
	}
	sample := benchmath.NewSample(vs, &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(sample, Confidence)
	st := &Stat{Unit: unit, Median: sum.Center, Confidence: sum.Confidence, Values: sample.Values}
	if !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0) {
		st.Lo, st.Hi = &sum.Lo, &sum.Hi
	}
	return st
}

// values returns the figures of unit over s's runs, in run order; nil if
// s lacks the unit.
func (s *Strategy) values(unit string) []float64 {
	if s.Stat(unit) == nil {
		return nil
	}
	if len(s.Runs) == 0 { // read back from JSON: only the sorted values
		return s.Stat(unit).Values
	}
	vs := make([]float64, len(s.Runs))
	for i, m := range s.Runs {
		vs[i] = Value(m, unit)
	}
	return vs
}

// Judged returns the units r's verdict ranks strategies on: Metric, then
// Also.
func (r *Result) Judged() []string { return append([]string{r.Metric}, r.Also...) }

// GateUnits returns the units on which a pooled strategy must beat alloc:
// Gate, or the judged units.
func (r *Result) GateUnits() []string {
	if len(r.Gate) > 0 {
		return r.Gate
	}
	return r.Judged()
}

// WriteJSON writes rep as indented JSON.
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
