package report

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/poolkit/pool/benchmarks"
	"golang.org/x/perf/benchfmt"
)

// synthetic builds a Result of a workload from ns/op samples per strategy.
func synthetic(workload, metric, baseline string, samples map[string][]float64) Result {
	w := &benchmarks.Workload{Name: workload, Doc: "synthetic", Metric: metric, Baseline: baseline, GetsPerOp: 1}
	runs := map[string][]benchmarks.Measurement{}
	for _, name := range []string{"alloc", "syncpool", "pool"} {
		vs, ok := samples[name]
		if !ok {
			continue
		}
		w.Strategies = append(w.Strategies, benchmarks.Strategy{Name: name})
		for i, v := range vs {
			m := benchmarks.Measurement{Ops: 1000 + i, NsPerOp: v, RetainedBytes: v, AllocsPerOp: 0, HitRatio: math.NaN()}
			if name == "alloc" {
				m.AllocsPerOp, m.HitRatio = 2, 0
			}
			runs[name] = append(runs[name], m)
		}
	}
	return NewResult(w, 2, runs)
}

// spread returns n values around c (±1%), in an order that is not sorted.
func spread(c float64, n int) []float64 {
	vs := make([]float64, n)
	for i := range vs {
		vs[i] = c * (1 + 0.01*float64((i*7)%n-n/2)/float64(n))
	}
	return vs
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name        string
		metric      string
		baseline    string
		samples     map[string][]float64
		significant bool
		winner      string
		text        string // substring of the verdict
	}{
		{"pool wins", "ns/op", "alloc",
			map[string][]float64{"alloc": spread(280, 6), "syncpool": spread(150, 6), "pool": spread(100, 6)},
			true, "pool", "pool 2.8x faster than alloc, 0.00 allocs/op — pool it"},
		{"alloc wins", "ns/op", "alloc",
			map[string][]float64{"alloc": spread(10, 6), "syncpool": spread(19, 6), "pool": spread(16, 6)},
			true, "alloc", "pooling 1.6x slower (best pooled: pool) — don't pool"},
		{"overlapping", "ns/op", "alloc",
			map[string][]float64{"alloc": {100, 104, 98, 103, 99, 101}, "pool": {101, 97, 103, 100, 102, 99}},
			false, "alloc", "no significant difference"}, // equal medians: the first listed wins
		{"too few runs", "ns/op", "alloc",
			map[string][]float64{"alloc": {300, 310}, "pool": {100, 101}},
			false, "pool", "no verdict"},
		{"retained, alloc only a reference", "retained-B", "syncpool",
			map[string][]float64{"alloc": spread(0.5, 6), "syncpool": spread(10<<20, 6), "pool": spread(1<<20, 6)},
			true, "pool", "pool 10x less retained-B than syncpool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := synthetic("w", tt.metric, tt.baseline, tt.samples)
			v := r.Verdict
			if v.Significant != tt.significant || v.Winner != tt.winner || !strings.Contains(v.Text, tt.text) {
				t.Errorf("got %+v; want significant=%v winner=%s text containing %q", v, tt.significant, tt.winner, tt.text)
			}
		})
	}
}

// sampleReport is a report of two workloads, one with a strategy whose
// hit ratio is unknown.
func sampleReport() *Report {
	rep := New(6, "80ms")
	rep.Results = append(rep.Results,
		synthetic("logline", "ns/op", "alloc", map[string][]float64{"alloc": spread(280, 6), "pool": spread(100, 6)}),
		synthetic("bloat", "retained-B", "syncpool", map[string][]float64{"alloc": spread(100, 6), "syncpool": spread(1e7, 6), "pool": spread(1e5, 6)}))
	return rep
}

func TestJSONParses(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	var got Report
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, b.String())
	}
	if len(got.Results) != 2 || got.Results[0].Workload != "logline" || len(got.Results[0].Strategies) != 2 {
		t.Fatalf("got %+v; want logline and bloat with their strategies", got.Results)
	}
	st := got.Results[0].Strategies[1].Stats[0]
	if st.Unit != "ns/op" || math.Abs(st.Median-100) > 1 || st.Lo == nil || len(st.Values) != 6 {
		t.Errorf("pool ns/op stat: got %+v; want median ≈100 with an interval over 6 values", st)
	}
	if !got.Results[0].Verdict.Significant {
		t.Errorf("logline verdict not significant after the round trip: %+v", got.Results[0].Verdict)
	}
}

func TestBenchfmtParses(t *testing.T) {
	var b bytes.Buffer
	rep := sampleReport()
	if err := WriteBenchfmt(&b, rep); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&b, "poolbench.txt")
	n := 0
	for rd.Scan() {
		switch rec := rd.Result(); rec := rec.(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("syntax error: %v", rec)
		case *benchfmt.Result:
			n++
			if ns, ok := rec.Value("sec/op"); !ok || ns <= 0 { // benchfmt reports ns/op as sec/op
				t.Errorf("%s: sec/op = %v, %v; want a positive value", rec.Name, ns, ok)
			}
			if _, ok := rec.Value("retained-B"); !ok {
				t.Errorf("%s: no retained-B", rec.Name)
			}
			_, hasHit := rec.Value("hit-ratio")
			if want := strings.Contains(string(rec.Name), "strategy=alloc"); hasHit != want {
				t.Errorf("%s: has hit-ratio %v; want %v (only alloc's is known here)", rec.Name, hasHit, want)
			}
			if !strings.HasPrefix(string(rec.Name.Full()), "Logline/strategy=") && !strings.HasPrefix(string(rec.Name.Full()), "Bloat/strategy=") {
				t.Errorf("name %q; want Logline/strategy=... or Bloat/strategy=...", rec.Name.Full())
			}
			if rec.GetConfig("goos") == "" {
				t.Errorf("%s: no goos config", rec.Name)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if want := (2 + 3) * 6; n != want {
		t.Errorf("got %d results; want %d (one per run)", n, want)
	}
}

func TestHTMLOneChartPerWorkload(t *testing.T) {
	var b bytes.Buffer
	rep := sampleReport()
	if err := WriteHTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if got := strings.Count(html, "<svg"); got != len(rep.Results) {
		t.Errorf("got %d charts; want %d, one per workload", got, len(rep.Results))
	}
	for _, want := range []string{"<!DOCTYPE html>", `id="logline-2"`, `id="bloat-2"`, "pool it", "</html>"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, bad := range []string{"<script src", "<link ", "http://", "https://"} {
		if i := strings.Index(html, bad); i >= 0 && !strings.Contains(html[i:min(i+60, len(html))], "www.w3.org") {
			t.Errorf("report is not self-contained: %q at %d", html[i:min(i+60, len(html))], i)
		}
	}
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	r := sampleReport().Results[0]
	WriteTable(&b, &r)
	out := b.String()
	for _, want := range []string{"strategy", "ns/op", "hit ratio", "retained", "GC/Mop", "alloc", "pool", "verdict: logline: pool 2.8x faster than alloc"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
