package report

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/poolkit/pool/benchmarks"
)

// chartUnits are the units charted for every workload; a workload whose
// Metric is not among them gets a fourth chart of it.
var chartUnits = []string{"ns/op", "allocs/op", "B/op"}

// unitTitles name the charted quantities.
var unitTitles = map[string]string{
	"ns/op":      "time per operation",
	"allocs/op":  "allocations per operation",
	"B/op":       "bytes allocated per operation",
	"hit-ratio":  "hit ratio, higher is better",
	"retained-B": "heap held after the load",
	"gc/Mop":     "GC cycles per million operations",
}

// WriteHTML writes rep as one self-contained HTML page (no scripts, no
// external resources): a summary of the verdicts, the legend, and per
// result its verdict, its table and SVG bar charts of time, allocs/op,
// B/op and the workload's own metric (medians with their confidence
// intervals as error bars; the recommended strategy highlighted; a log
// scale when the bars span more than 10x).
func WriteHTML(w io.Writer, rep *Report) error {
	type cell struct{ Median, CI string }
	type row struct {
		*Strategy
		Cells       []cell
		Recommended bool
	}
	type section struct {
		*Result
		Short  string
		Rows   []row
		Charts []template.HTML
	}
	var sections []section
	for i := range rep.Results {
		r := &rep.Results[i]
		sec := section{Result: r, Short: Short(r)}
		for k := range r.Strategies {
			s := &r.Strategies[k]
			rw := row{Strategy: s, Recommended: s.Name == r.Verdict.Winner}
			for _, u := range Units {
				rw.Cells = append(rw.Cells, splitStat(s.Stat(u)))
			}
			sec.Rows = append(sec.Rows, rw)
		}
		units := chartUnits
		if !slices.Contains(units, r.Metric) {
			units = append(slices.Clip(units), r.Metric)
		}
		for _, u := range units {
			svg, ok := Chart(r, u)
			if ok {
				// Built by Chart from escaped text and numbers.
				sec.Charts = append(sec.Charts, template.HTML(svg))
			}
		}
		sections = append(sections, sec)
	}
	var heads []string
	for _, u := range Units {
		heads = append(heads, columns[u])
	}
	return page.Execute(w, struct {
		*Report
		Sections []section
		Legend   [][2]string
		Heads    []string
	}{rep, sections, Legend, heads})
}

// splitStat returns the median and the interval of st as Stat.String
// writes them, apart.
func splitStat(st *Stat) (c struct{ Median, CI string }) {
	str := st.String()
	if st == nil || strings.HasPrefix(str, "<") {
		c.Median = str
		return c
	}
	c.Median, c.CI = FormatValue(st.Unit, st.Median), st.Pct()
	return c
}

// A bar is one strategy in a chart.
type bar struct {
	name        string
	v, lo, hi   float64 // lo, hi: NaN without an interval
	label       string
	recommended bool
}

// Chart draws unit for every strategy of r that has it as an SVG
// horizontal bar chart; ok is false when none has it.
func Chart(r *Result, unit string) (svg string, ok bool) {
	var bars []bar
	for i := range r.Strategies {
		s := &r.Strategies[i]
		st := s.Stat(unit)
		if st == nil {
			continue
		}
		b := bar{name: s.Name, v: st.Median, lo: math.NaN(), hi: math.NaN(), recommended: s.Name == r.Verdict.Winner}
		if st.Lo != nil && st.Hi != nil {
			b.lo, b.hi = *st.Lo, *st.Hi
		}
		b.label = FormatValue(unit, st.Median)
		if unit == "ns/op" {
			b.label = formatNs(st.Median)
		}
		if unit == "retained-B" && st.Median < benchmarks.RetainedFloor {
			b.label = "<" + formatBytes(benchmarks.RetainedFloor)
		}
		bars = append(bars, b)
	}
	if len(bars) == 0 {
		return "", false
	}
	return drawBars(unit, bars), true
}

// Geometry of a chart, in CSS pixels.
const (
	chartW  = 420
	labelW  = 104 // strategy names
	valueW  = 64  // value labels right of the bars
	barH    = 15
	barGap  = 6
	titleH  = 24
	axisH   = 30
	plotX0  = labelW + 6
	plotX1  = chartW - valueW
	tickLen = 4
)

// An axis maps values to x.
type axis struct {
	log    bool
	lo, hi float64 // in value units; for log, both > 0
	ticks  []float64
}

func (a *axis) x(v float64) float64 {
	var f float64
	if a.log {
		v = math.Max(v, a.lo)
		f = (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	} else {
		f = (v - a.lo) / (a.hi - a.lo)
	}
	f = math.Max(0, math.Min(1, f))
	return plotX0 + f*(plotX1-plotX0)
}

// newAxis picks a linear axis from 0, or a log axis when the positive
// medians span more than 10x, with ticks at round values of unit.
func newAxis(unit string, bars []bar) *axis {
	maxV, minPos := 0.0, math.Inf(1)
	for _, b := range bars {
		top := b.v
		if !math.IsNaN(b.hi) {
			top = math.Max(top, b.hi)
		}
		maxV = math.Max(maxV, top)
		if b.v > 0 {
			minPos = math.Min(minPos, b.v)
		}
	}
	if unit == "hit-ratio" {
		return &axis{lo: 0, hi: 1, ticks: []float64{0, 0.25, 0.5, 0.75, 1}}
	}
	if maxV <= 0 {
		return &axis{lo: 0, hi: 1, ticks: []float64{0, 1}}
	}
	if !math.IsInf(minPos, 1) && maxV/minPos > 10 {
		return logAxis(unit, minPos, maxV)
	}
	step := niceStep(unit, maxV/4)
	a := &axis{lo: 0, hi: math.Ceil(maxV/step-1e-9) * step}
	for t := 0.0; t <= a.hi+step/2; t += step {
		a.ticks = append(a.ticks, t)
	}
	return a
}

// niceStep returns a round step near raw: 1, 2 or 5 times a power of 10,
// or for bytes a power of 2.
func niceStep(unit string, raw float64) float64 {
	if unit == "B/op" || unit == "retained-B" {
		return math.Pow(2, math.Ceil(math.Log2(raw)))
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func logAxis(unit string, minV, maxV float64) *axis {
	a := &axis{log: true}
	if unit == "B/op" || unit == "retained-B" {
		lo, hi := math.Floor(math.Log2(minV)), math.Ceil(math.Log2(maxV))
		step := math.Max(1, math.Ceil((hi-lo)/6))
		lo = math.Floor(lo/step) * step
		hi = math.Ceil(hi/step) * step
		for e := lo; e <= hi; e += step {
			a.ticks = append(a.ticks, math.Pow(2, e))
		}
		a.lo, a.hi = math.Pow(2, lo), math.Pow(2, hi)
		return a
	}
	lo, hi := math.Floor(math.Log10(minV)), math.Ceil(math.Log10(maxV))
	step := math.Max(1, math.Ceil((hi-lo)/6))
	for e := lo; e <= hi; e += step {
		a.ticks = append(a.ticks, math.Pow(10, e))
		if hi-lo <= 2 && e < hi {
			a.ticks = append(a.ticks, 2*math.Pow(10, e), 5*math.Pow(10, e))
		}
	}
	a.lo, a.hi = math.Pow(10, lo), math.Pow(10, hi)
	return a
}

// tickLabel formats a tick: "0", "500ns", "20µs", "1ms"; "10k"; "4MiB".
func tickLabel(unit string, v float64) string {
	switch unit {
	case "ns/op":
		return formatNs(v)
	case "B/op", "retained-B":
		return formatBytes(v)
	case "hit-ratio":
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
	}
	switch a := math.Abs(v); {
	case a >= 1e6:
		return trimZero(sig3(v/1e6)) + "M"
	case a >= 1e3:
		return trimZero(sig3(v/1e3)) + "k"
	}
	return trimZero(sig3(v))
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// formatNs formats nanoseconds with a time unit: "12.3ns", "4.5µs", "1.2s".
func formatNs(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 1e9:
		return trimZero(sig3(v/1e9)) + "s"
	case a >= 1e6:
		return trimZero(sig3(v/1e6)) + "ms"
	case a >= 1e3:
		return trimZero(sig3(v/1e3)) + "µs"
	}
	return trimZero(sig3(v)) + "ns"
}

// Colours of the charts.
const (
	colBar     = "#a9c1e0"
	colBarRec  = "#2f9e44"
	colWhisker = "#1b1b1b"
	colGrid    = "#e3e3e3"
	colText    = "#222"
	colMuted   = "#666"
)

func drawBars(unit string, bars []bar) string {
	a := newAxis(unit, bars)
	plotH := len(bars)*(barH+barGap) + barGap
	h := titleH + plotH + axisH
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		chartW, h, chartW, h, html.EscapeString(unit))
	title := unitTitles[unit] + " (" + unit
	if a.log {
		title += ", log scale"
	}
	title += ")"
	fmt.Fprintf(&b, `<text x="0" y="15" class="title">%s</text>`, html.EscapeString(title))
	y0, y1 := float64(titleH), float64(titleH+plotH)
	// Grid and ticks.
	for _, t := range a.ticks {
		x := a.x(t)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, x, y0, x, y1, colGrid)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, x, y1, x, y1+tickLen, colMuted)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" class="tick">%s</text>`, x, y1+tickLen+12, html.EscapeString(tickLabel(unit, t)))
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>`, plotX0, y1, plotX1, y1, colMuted)
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>`, plotX0, y0, plotX0, y1, colMuted)
	for i, br := range bars {
		y := y0 + float64(barGap+i*(barH+barGap))
		cy := y + barH/2
		fill, weight := colBar, ""
		if br.recommended {
			fill, weight = colBarRec, ` font-weight="bold"`
		}
		name := br.name
		if br.recommended {
			name = "★ " + name
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" class="name"%s>%s</text>`, labelW, cy+4, weight, html.EscapeString(name))
		x := a.x(br.v)
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%s: %s</title></rect>`,
			plotX0, y, math.Max(x-plotX0, 0), barH, fill, html.EscapeString(br.name), html.EscapeString(br.label))
		end := x
		if !math.IsNaN(br.lo) && !math.IsNaN(br.hi) && br.hi > br.lo {
			xl, xh := a.x(br.lo), a.x(br.hi)
			fmt.Fprintf(&b, `<g stroke="%s" stroke-width="1.5"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/></g>`,
				colWhisker, xl, cy, xh, cy, xl, cy-4, xl, cy+4, xh, cy-4, xh, cy+4)
			end = math.Max(end, xh)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="value"%s>%s</text>`, end+4, cy+4, weight, html.EscapeString(br.label))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"actClass": func(action string) string {
		return map[string]string{ActPool: "pool-it", ActDontPool: "dont-pool"}[action] + map[bool]string{true: "inconclusive"}[action == ActInconclusive]
	},
	"judged": func(r *Result) string {
		j, g := strings.Join(r.Judged(), " and "), strings.Join(r.GateUnits(), " and ")
		if j == g {
			return "Judged on " + j + "."
		}
		return "Pooling must beat alloc on " + g + "; the pools that do are ranked on " + j + "."
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>poolbench report</title>
<style>
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; font-size: 14px; color: #222; margin: 2em auto; max-width: 66em; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin: 1.6em 0 0.3em; border-bottom: 2px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; font-variant-numeric: tabular-nums; }
th, td { padding: 0.25em 0.6em; text-align: right; border-bottom: 1px solid #e3e3e3; white-space: nowrap; }
td.text { white-space: normal; }
.ci { color: #777; font-size: 0.85em; font-weight: normal; }
th { background: #f4f4f4; }
th:first-child, td:first-child { text-align: left; }
td.text, th.text { text-align: left; }
tr.rec td { background: #e6f4ea; font-weight: bold; }
.meta { color: #555; }
.verdict { padding: 0.5em 0.8em; border-left: 5px solid #999; background: #f7f7f7; }
.verdict.pool-it { border-color: #2f9e44; }
.verdict.dont-pool { border-color: #d9480f; }
.verdict.inconclusive { border-color: #f59f00; }
.act { font-weight: bold; }
.act.pool-it { color: #2b8a3e; } .act.dont-pool { color: #c92a2a; } .act.inconclusive { color: #b35c00; }
dl.legend { display: grid; grid-template-columns: max-content auto; gap: 0.15em 1em; color: #333; }
dl.legend dt { font-weight: bold; }
dl.legend dd { margin: 0; }
.charts { display: flex; flex-wrap: wrap; gap: 0.8em 1.6em; }
svg.chart { font-family: inherit; }
svg.chart text { fill: #222; font-size: 11px; }
svg.chart text.title { font-size: 12.5px; font-weight: bold; }
svg.chart text.tick { fill: #555; font-size: 10.5px; }
</style>
</head>
<body>
<h1>poolbench report</h1>
<p class="meta">{{.GoVersion}} {{.GOOS}}/{{.GOARCH}}, {{.NumCPU}} CPUs. Each strategy ran interleaved with the others, {{.Time}} per run,
until every comparison its verdict needs was settled, at most {{.Count}} runs or {{.Cap}} per workload.</p>

<h2 id="summary">Verdicts</h2>
<table>
<tr><th>workload</th><th class="text">verdict</th><th class="text">why</th><th>runs</th></tr>
{{range .Sections}}<tr><td><a href="#{{.Workload}}-{{.Procs}}">{{.Workload}}</a></td><td class="text"><span class="act {{actClass .Verdict.Action}}">{{.Short}}</span></td><td class="text">{{.Verdict.Why}}</td><td>{{.Runs}}</td></tr>
{{end}}</table>
<p class="meta">A strategy beats another when it is better on one of the workload's units and worse on none; better means the
{{printf "%.0f" 95.0}}% confidence interval of their ratio (Hodges–Lehmann, from all pairs of runs) excludes 1 and the estimate is at least
5% (pooling against alloc), or at 99% confidence by at least 20% (another strategy against the project's pool).
"pool it": some pooled strategy beats alloc; the project's pool is recommended unless it is shown worse than alloc or another strategy beats it.
"don't pool": no pooled strategy beats alloc. "some comparisons inconclusive": a challenger of the recommended pool could not be ruled
out in the time given.</p>

<h2 id="columns">Columns</h2>
<dl class="legend">{{range .Legend}}<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>{{end}}</dl>
{{range .Sections}}
<section class="workload" id="{{.Workload}}-{{.Procs}}">
<h2>{{.Workload}} <small class="meta">GOMAXPROCS={{.Procs}}, {{.Runs}} runs per strategy</small></h2>
<p>{{.Doc}}. {{judged .Result}}</p>
<p class="verdict {{actClass .Verdict.Action}}">{{.Verdict.Text}}</p>
<table>
<tr><th>strategy</th>{{range $.Heads}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr{{if .Recommended}} class="rec"{{end}}><td title="{{.Doc}}">{{if .Recommended}}★ {{end}}{{.Name}}</td>{{range .Cells}}<td>{{.Median}}{{if .CI}} <span class="ci">{{.CI}}</span>{{end}}</td>{{end}}</tr>
{{end}}</table>
<div class="charts">{{range .Charts}}{{.}}{{end}}</div>
</section>
{{end}}
</body>
</html>
`))
