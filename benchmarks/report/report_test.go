package report

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/poolkit/pool/benchmarks"
	"golang.org/x/perf/benchfmt"
)

// workload describes a synthetic workload for synthetic.
type workload struct {
	name, metric, baseline string
	also, gate, project    []string
	ns                     map[string]float64 // ns/op per strategy when metric is not ns/op (default 100)
}

var timeWorkload = workload{name: "w", metric: "ns/op", baseline: "alloc", project: []string{"pool"}}

// synthetic builds a Result from per-strategy samples of the workload's
// metric; other units get fixed figures (alloc 2 allocs/op and hit ratio
// 0, pools 0 allocs/op and hit ratio 1).
func synthetic(wl workload, samples map[string][]float64) Result {
	w := &benchmarks.Workload{Name: wl.name, Doc: "synthetic", Metric: wl.metric, Also: wl.also, Gate: wl.gate, Baseline: wl.baseline,
		Project: wl.project, GetsPerOp: 1}
	runs := map[string][]benchmarks.Measurement{}
	for _, name := range []string{"alloc", "syncpool", "pool", "chan"} {
		vs, ok := samples[name]
		if !ok {
			continue
		}
		w.Strategies = append(w.Strategies, benchmarks.Strategy{Name: name, Doc: name + " doc", GivesUp: map[string]string{"chan": "no stats"}[name]})
		for i, v := range vs {
			m := benchmarks.Measurement{Ops: 1000 + i, NsPerOp: 100, RetainedBytes: 0, HitRatio: 1, GCPerMop: 1}
			if ns, ok := wl.ns[name]; ok {
				m.NsPerOp = ns * (1 + 0.01*float64(i%3))
			}
			if name == "alloc" {
				m.AllocsPerOp, m.BytesPerOp, m.HitRatio = 2, 64, 0
			}
			switch wl.metric {
			case "ns/op":
				m.NsPerOp = v
			case "retained-B":
				m.RetainedBytes = v
			case "hit-ratio":
				m.HitRatio = v
			case "allocs/op":
				m.AllocsPerOp = v
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
		vs[i] = c * (1 + 0.02*float64((i*7)%n-n/2)/float64(n))
	}
	return vs
}

// noisy returns n values around c spread over ±50%.
func noisy(c float64, n int) []float64 {
	vs := make([]float64, n)
	for i := range vs {
		vs[i] = c * (0.5 + float64((i*5)%n)/float64(n-1))
	}
	return vs
}

func TestHLRank(t *testing.T) {
	// Critical values of the two-sided Mann–Whitney test at 5%: reject
	// when U <= 2 (5 and 5 runs), U <= 5 (6 and 6), U <= 23 (10 and 10).
	for _, tt := range []struct{ n, m, want int }{{3, 3, 0}, {4, 4, 1}, {5, 5, 3}, {6, 6, 6}, {10, 10, 24}} {
		if got := hlRank(tt.n, tt.m, 0.95); got != tt.want {
			t.Errorf("hlRank(%d, %d) = %d; want %d", tt.n, tt.m, got, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name    string
		unit    string
		a, b    []float64
		outcome Outcome
		factor  float64 // estimate, within 2%
	}{
		{"twice as fast", "ns/op", spread(100, 6), spread(200, 6), Better, 2},
		{"twice as slow", "ns/op", spread(200, 6), spread(100, 6), Worse, 0.5},
		{"equal within 1%", "ns/op", spread(100, 8), spread(100.5, 8), Same, 1.005},
		{"3% apart: significant but under the margin", "ns/op", spread(100, 10), spread(103, 10), Same, 1.03},
		{"too noisy", "ns/op", noisy(100, 8), noisy(110, 8), Unknown, 1.1},
		{"too few runs", "ns/op", []float64{100, 100, 100}, []float64{300, 300, 300}, Unknown, 3},
		{"retained below the floor", "retained-B", spread(1000, 6), spread(5000, 6), Same, 1},
		{"hit ratio difference", "hit-ratio", spread(0.99, 6), spread(0.01, 6), Better, 0.98},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Compare("a", "b", tt.unit, tt.a, tt.b, GateMargin, Confidence)
			if c.Outcome != tt.outcome || math.Abs(c.Factor-tt.factor) > 0.02*math.Abs(tt.factor)+0.005 {
				t.Errorf("got %v; want %v with estimate %v", c, tt.outcome, tt.factor)
			}
			if c.Outcome != Unknown && !c.Resolved() && c.Outcome != Same {
				t.Errorf("%v: outcome %v but not resolved", c, c.Outcome)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	gc := workload{name: "gc", metric: "hit-ratio", also: []string{"allocs/op"}, baseline: "syncpool", project: []string{"pool"}}
	tests := []struct {
		name    string
		wl      workload
		samples map[string][]float64
		action  string
		winner  string
		text    []string // substrings of the verdict
	}{
		{"pool wins", timeWorkload,
			map[string][]float64{"alloc": spread(280, 6), "syncpool": spread(150, 6), "pool": spread(100, 6)},
			ActPool, "pool", []string{"pool it: pool (pool doc): 2.8x faster than alloc (99.8ns vs 280ns)"}},
		{"a faster pool than the project's by less than the switch margin", timeWorkload,
			map[string][]float64{"alloc": spread(280, 6), "pool": spread(100, 6), "chan": spread(88, 6)},
			ActPool, "pool", []string{"pool it: pool", "chan is 1.14x faster than pool (87.9ns vs 99.8ns), less than the 20% it would take to recommend it instead (it gives up no stats)"}},
		{"another strategy much faster than the project's pool", timeWorkload,
			map[string][]float64{"alloc": spread(280, 6), "pool": spread(100, 6), "chan": spread(50, 6)},
			ActPool, "chan", []string{"pool it: chan", "2x faster than pool", "gives up no stats"}},
		// The project's pool is the default: an interval too wide to show
		// it worse than alloc leaves it in place (and chan then beats it).
		{"the project's pool not settled against alloc", timeWorkload,
			map[string][]float64{"alloc": spread(280, 8), "pool": noisy(270, 8), "chan": spread(100, 8)},
			ActPool, "chan", []string{"pool it: chan", "it beats the project's pool: 2.7x faster than pool"}},
		{"the project's pool not settled against alloc, no challenger", timeWorkload,
			map[string][]float64{"alloc": spread(280, 8), "pool": noisy(270, 8), "syncpool": spread(200, 8)},
			ActPool, "pool", []string{"pool it: pool", "pooling pays here (syncpool: 1.4x faster than alloc", "pool is not shown worse than alloc"}},
		{"a later project pool unsettled against alloc does not unsettle the pick",
			workload{name: "w", metric: "ns/op", baseline: "alloc", project: []string{"pool", "syncpool"}},
			map[string][]float64{"alloc": spread(280, 8), "pool": spread(100, 8), "syncpool": noisy(270, 8)},
			ActPool, "pool", []string{"pool it: pool (pool doc)"}},
		// tinystruct on the idle machine: sync.Pool 25.1 ns, pool.Pool 26.7,
		// alloc 27.7. Pooling pays (sync.Pool beats alloc by more than the
		// gate margin); pool.Pool is not worse than alloc and sync.Pool
		// does not beat it by the switch margin: pool.Pool, said so.
		{"the project's pool within the gate margin of alloc while another pool pays", timeWorkload,
			map[string][]float64{"alloc": spread(27.7, 10), "syncpool": spread(25.1, 10), "pool": spread(26.7, 10)},
			ActPool, "pool", []string{"pool it: pool (pool doc)", "pooling pays here (syncpool: 1.1x faster than alloc", "pool is not shown worse than alloc"}},
		{"the project's pool worse than alloc while another pool pays", timeWorkload,
			map[string][]float64{"alloc": spread(100, 8), "pool": spread(115, 8), "chan": spread(80, 8)},
			ActPool, "chan", []string{"pool it: chan", "the project's pool (pool) is worse than alloc here", "gives up no stats"}},
		{"alloc wins", timeWorkload,
			map[string][]float64{"alloc": spread(10, 6), "syncpool": spread(19, 6), "pool": spread(16, 6)},
			ActDontPool, "alloc", []string{"don't pool", "the closest, pool: 1.6x slower than alloc"}},
		{"pooling no faster", timeWorkload,
			map[string][]float64{"alloc": spread(100, 8), "pool": spread(101, 8)},
			ActDontPool, "alloc", []string{"don't pool"}},
		{"noise", timeWorkload,
			map[string][]float64{"alloc": noisy(100, 8), "pool": noisy(90, 8)},
			ActInconclusive, "", []string{NeedsMoreTime, "after 8 runs", "pool vs alloc on ns/op"}},
		{"too few runs", timeWorkload,
			map[string][]float64{"alloc": {300, 310, 305}, "pool": {100, 101, 99}},
			ActInconclusive, "", []string{NeedsMoreTime}},
		{"retained: the project's pool against sync.Pool",
			workload{name: "bloat", metric: "retained-B", also: []string{"ns/op"}, baseline: "syncpool", project: []string{"pool"}},
			map[string][]float64{"alloc": spread(1000, 6), "syncpool": spread(8<<20, 6), "pool": spread(2000, 6)},
			ActDontPool, "alloc", []string{"don't pool"}}, // same time, same (no) retained heap: nothing gained
		{"retained ranks the pools that pay in time",
			workload{name: "bloat", metric: "retained-B", also: []string{"ns/op"}, gate: []string{"ns/op"}, baseline: "syncpool",
				project: []string{"pool"}, ns: map[string]float64{"alloc": 300, "syncpool": 50, "pool": 100, "chan": 60}},
			map[string][]float64{"alloc": spread(1000, 6), "syncpool": spread(8<<20, 6), "pool": spread(800<<10, 6), "chan": spread(16<<20, 6)},
			ActPool, "pool", []string{"pool it: pool", "3x faster than alloc", "retains 799KiB after the load (syncpool: 7.99MiB)"}},
		{"hit ratio and allocs", gc,
			map[string][]float64{"alloc": spread(0.001, 6), "syncpool": spread(0.001, 6), "pool": spread(0.98, 6)},
			ActPool, "pool", []string{"hit ratio 0.98 (alloc: 0.00)", "0.00 allocs/op (alloc: 2.00)", "(syncpool: 0.00)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := synthetic(tt.wl, tt.samples)
			v := r.Verdict
			if v.Action != tt.action || v.Winner != tt.winner {
				t.Errorf("got action %q winner %q; want %q %q\n%s", v.Action, v.Winner, tt.action, tt.winner, v.Text)
			}
			for _, s := range tt.text {
				if !strings.Contains(v.Text, s) {
					t.Errorf("verdict %q lacks %q", v.Text, s)
				}
			}
			if strings.Contains(v.Text, "no difference") || strings.Contains(v.Text, "no significant") {
				t.Errorf("verdict %q claims no difference", v.Text)
			}
			if (v.Action == ActInconclusive) == v.Significant {
				t.Errorf("significant %v for action %q", v.Significant, v.Action)
			}
		})
	}
}

func TestStatString(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		stat Stat
		want string
	}{
		{Stat{Unit: "ns/op", Median: 412, Lo: f(400), Hi: f(430)}, "412ns ±4%"},
		{Stat{Unit: "ns/op", Median: 224, Lo: f(100), Hi: f(980)}, "224ns 100ns–980ns"},
		{Stat{Unit: "ns/op", Median: 50000, Lo: f(49000), Hi: f(51000)}, "50µs ±2%"},
		{Stat{Unit: "ns/op", Median: 2.5e8, Lo: f(2.4e8), Hi: f(2.6e8)}, "250ms ±4%"},
		{Stat{Unit: "gc/Mop", Median: 2.5e6, Lo: f(2.5e6), Hi: f(2.5e6)}, "2500000 ±0%"},
		{Stat{Unit: "retained-B", Median: 4000, Lo: f(0), Hi: f(9000)}, "<64KiB"},
		{Stat{Unit: "retained-B", Median: 4 << 20, Lo: f(4 << 20), Hi: f(8 << 20)}, "4MiB ±100%"},
		{Stat{Unit: "retained-B", Median: 700 << 10, Lo: f(10 << 10), Hi: f(720 << 10)}, "700KiB ±91%"},
		{Stat{Unit: "allocs/op", Median: 0, Lo: f(0), Hi: f(0)}, "0.00 ±0%"},
		{Stat{Unit: "allocs/op", Median: 1, Lo: nil, Hi: nil}, "1.00 (n<6)"},
	}
	for _, tt := range tests {
		if got := tt.stat.String(); got != tt.want {
			t.Errorf("%+v: got %q; want %q", tt.stat, got, tt.want)
		}
	}
}

func TestTickLabels(t *testing.T) {
	tests := []struct {
		unit string
		v    float64
		want string
	}{
		{"ns/op", 50000, "50µs"}, {"ns/op", 1e7, "10ms"}, {"ns/op", 2.5e8, "250ms"}, {"ns/op", 0, "0"}, {"ns/op", 500, "500ns"},
		{"allocs/op", 1e4, "10k"}, {"allocs/op", 0.5, "0.5"}, {"allocs/op", 2e6, "2M"},
		{"B/op", 1 << 20, "1MiB"}, {"retained-B", 64 << 10, "64KiB"}, {"hit-ratio", 0.25, "0.25"}, {"hit-ratio", 1, "1"},
	}
	for _, tt := range tests {
		if got := tickLabel(tt.unit, tt.v); got != tt.want {
			t.Errorf("tickLabel(%s, %v) = %q; want %q", tt.unit, tt.v, got, tt.want)
		}
	}
}

func TestAxis(t *testing.T) {
	lin := newAxis("ns/op", []bar{{v: 100, lo: 90, hi: 110}, {v: 300, lo: math.NaN(), hi: math.NaN()}})
	if lin.log || lin.lo != 0 || lin.hi < 300 || len(lin.ticks) < 3 {
		t.Errorf("bars within 3x: got %+v; want a linear axis from 0 past 300", lin)
	}
	lg := newAxis("ns/op", []bar{{v: 4e4, lo: math.NaN(), hi: math.NaN()}, {v: 6e5, lo: math.NaN(), hi: math.NaN()}})
	if !lg.log || lg.lo > 4e4 || lg.hi < 6e5 {
		t.Errorf("bars 15x apart: got %+v; want a log axis around 4e4..6e5", lg)
	}
	for _, tk := range lg.ticks {
		if l := tickLabel("ns/op", tk); strings.ContainsAny(l, "e+") {
			t.Errorf("tick %v labelled %q", tk, l)
		}
	}
}

// sampleReport is a report of two workloads, one with a strategy whose
// hit ratio is unknown.
func sampleReport() *Report {
	rep := New(30, "40ms", "8s")
	rep.Results = append(rep.Results,
		synthetic(workload{name: "logline", metric: "ns/op", baseline: "alloc", project: []string{"pool"}},
			map[string][]float64{"alloc": spread(280, 6), "syncpool": spread(130, 6), "pool": spread(100, 6), "chan": spread(120, 6)}),
		synthetic(workload{name: "bloat", metric: "retained-B", also: []string{"ns/op"}, baseline: "syncpool", project: []string{"pool"}},
			map[string][]float64{"alloc": spread(100, 6), "syncpool": spread(8<<20, 6), "pool": spread(200<<10, 6)}))
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
	if len(got.Results) != 2 || got.Results[0].Workload != "logline" || len(got.Results[0].Strategies) != 4 {
		t.Fatalf("got %+v; want logline and bloat with their strategies", got.Results)
	}
	st := got.Results[0].Strategies[2].Stats[0]
	if st.Unit != "ns/op" || math.Abs(st.Median-100) > 1 || st.Lo == nil || len(st.Values) != 6 {
		t.Errorf("pool ns/op stat: got %+v; want median ≈100 with an interval over 6 values", st)
	}
	if v := got.Results[0].Verdict; v.Action != ActPool || v.Winner != "pool" || len(v.Basis) == 0 || v.Basis[0].Outcome != Better {
		t.Errorf("logline verdict after the round trip: %+v; want pool it: pool, based on a better comparison", v)
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
	if want := (4 + 3) * 6; n != want {
		t.Errorf("got %d results; want %d (one per run)", n, want)
	}
}

func TestHTML(t *testing.T) {
	var b bytes.Buffer
	rep := sampleReport()
	if err := WriteHTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	// logline: ns/op, allocs/op, B/op; bloat: those and retained-B.
	if got := strings.Count(html, "<svg"); got != 3+4 {
		t.Errorf("got %d charts; want 7 (time, allocs/op, B/op per workload, and bloat's retained heap)", got)
	}
	summary := html[strings.Index(html, `id="summary"`):strings.Index(html, `id="logline-2"`)]
	for _, want := range []string{"pool it: pool", `href="#logline-2"`, `href="#bloat-2"`} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary table above the sections lacks %q", want)
		}
	}
	for _, want := range []string{"<!DOCTYPE html>", `class="rec"`, "★ pool", ", log scale)", "retained", "GC/Mop", "hit ratio", "</html>"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, l := range Legend {
		if !strings.Contains(html, l[1][:20]) {
			t.Errorf("report does not explain %q", l[0])
		}
	}
	if n := strings.Count(html, "font-family"); n != 2 { // the page's, and the charts' "inherit"
		t.Errorf("%d font-family declarations; want the page's and the charts' inherit only", n)
	}
	for _, bad := range []string{"<script", "<link ", "http://", "https://", "e+0", "NaN", "Inf"} {
		if i := strings.Index(html, bad); i >= 0 && !strings.Contains(html[i:min(i+60, len(html))], "www.w3.org") {
			t.Errorf("report contains %q: %q", bad, html[max(0, i-40):min(i+60, len(html))])
		}
	}
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	r := sampleReport().Results[0]
	WriteTable(&b, &r)
	WriteLegend(&b)
	out := b.String()
	for _, want := range []string{"strategy", "time/op", "hit ratio", "retained", "GC/Mop", "* pool", "verdict: pool it: pool", "allocs/op  heap allocations"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestDecideStableNearMargins draws the runs of three strategies from
// fixed distributions (±3% log-normal noise, 10 runs each, as poolbench
// has at its cap) and decides 200 times: where the true figures sit near
// a margin the verdict must not come and go. The medians are what
// poolbench measured: tinystruct on an idle and on a busy machine, where
// the old rule (the project's pool had to clear the gate margin itself,
// and a 10% switch margin) gave syncpool, pool, syncpool in three runs,
// and replicate, which flipped between pool and syncpoolptr.
func TestDecideStableNearMargins(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(median float64) []float64 {
		vs := make([]float64, 10)
		for i := range vs {
			vs[i] = median * math.Exp(0.03*rng.NormFloat64())
		}
		return vs
	}
	for _, tc := range []struct {
		name    string
		medians map[string]float64
	}{
		{"tinystruct, idle", map[string]float64{"alloc": 27.7, "syncpool": 25.1, "pool": 26.7}},
		{"tinystruct, busy", map[string]float64{"alloc": 52.5, "syncpool": 42.2, "pool": 48.2}},
		// replicate: sync.Pool of *[]string 105 ns, pool.Pool 119, alloc 502.
		{"replicate", map[string]float64{"alloc": 502, "syncpool": 105, "pool": 119}},
	} {
		verdicts := map[string]int{}
		for range 200 {
			samples := map[string][]float64{}
			for name, m := range tc.medians {
				samples[name] = draw(m)
			}
			r := synthetic(timeWorkload, samples)
			verdicts[r.Verdict.Action+" "+r.Verdict.Winner]++
		}
		if n := verdicts[ActPool+" pool"]; n < 190 {
			t.Errorf("%s: verdicts over 200 resamples: %v; want pool it: pool in at least 190", tc.name, verdicts)
		}
		t.Logf("%s: verdicts over 200 resamples: %v", tc.name, verdicts)
	}
}
