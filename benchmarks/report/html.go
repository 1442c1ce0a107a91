package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// WriteHTML writes rep as one self-contained HTML page: per result its
// verdict, its table and one SVG chart of the verdict's metric (median
// per strategy with the confidence interval as error bars), drawn by
// gonum.org/v1/plot and inlined, so the page opens offline.
func WriteHTML(w io.Writer, rep *Report) error {
	type section struct {
		*Result
		Chart template.HTML
		Units []string
	}
	var sections []section
	for i := range rep.Results {
		svg, err := Chart(&rep.Results[i])
		if err != nil {
			return fmt.Errorf("chart of %s: %v", rep.Results[i].Workload, err)
		}
		// The SVG comes from the plotting library, not from user input.
		sections = append(sections, section{&rep.Results[i], template.HTML(svg), Units})
	}
	return page.Execute(w, struct {
		*Report
		Sections []section
	}{rep, sections})
}

// Chart draws r's metric per strategy as an SVG bar chart with error bars.
func Chart(r *Result) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s (median, %.0f%% CI)", r.Workload, r.Metric, Confidence*100)
	p.Y.Label.Text = r.Metric
	var names []string
	var bars errBars
	for i := range r.Strategies {
		s := &r.Strategies[i]
		st := s.Stat(r.Metric)
		if st == nil {
			continue
		}
		names = append(names, s.Name)
		lo, hi := st.Median, st.Median
		if st.Lo != nil {
			lo, hi = *st.Lo, *st.Hi
		}
		bars = append(bars, errBar{x: float64(len(bars)), y: st.Median, lo: st.Median - lo, hi: hi - st.Median})
	}
	if len(bars) == 0 {
		return nil, fmt.Errorf("no strategy has %s", r.Metric)
	}
	bc, err := plotter.NewBarChart(bars, vg.Points(24))
	if err != nil {
		return nil, err
	}
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return nil, err
	}
	p.Add(bc, eb)
	p.NominalX(names...)
	wt, err := p.WriterTo(vg.Points(float64(120+60*len(bars))), vg.Points(260), "svg")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	svg := b.Bytes()
	// Drop the XML declaration and doctype: the SVG is inlined.
	if i := bytes.Index(svg, []byte("<svg")); i > 0 {
		svg = svg[i:]
	}
	return svg, nil
}

// errBars are the bars of a chart with their error bars; they implement
// plotter.Valuer, plotter.XYer and plotter.YErrorer.
type errBars []errBar

type errBar struct{ x, y, lo, hi float64 }

func (e errBars) Len() int                    { return len(e) }
func (e errBars) Value(i int) float64         { return e[i].y }
func (e errBars) XY(i int) (float64, float64) { return e[i].x, e[i].y }
func (e errBars) YError(i int) (float64, float64) {
	return math.Abs(e[i].lo), math.Abs(e[i].hi)
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"stat": func(s *Strategy, unit string) string { return s.Stat(unit).String() },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>poolbench report</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 70em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.2em 0.8em; text-align: right; border-bottom: 1px solid #ddd; }
th:first-child, td:first-child { text-align: left; }
.verdict { font-weight: bold; }
.insignificant { color: #777; }
</style>
</head>
<body>
<h1>poolbench</h1>
<p>{{.GoVersion}} {{.GOOS}}/{{.GOARCH}}, {{.NumCPU}} CPUs; {{.Count}} runs per strategy of {{.Time}} each.
Figures are medians with their {{printf "%.0f" 95.0}}% confidence interval (golang.org/x/perf/benchmath);
a verdict is given only when the Mann-Whitney U test finds the difference significant (p &lt; 0.05).</p>
{{range .Sections}}
<section class="workload" id="{{.Workload}}-{{.Procs}}">
<h2>{{.Workload}} <small>GOMAXPROCS={{.Procs}}</small></h2>
<p>{{.Doc}}</p>
<p class="verdict{{if not .Verdict.Significant}} insignificant{{end}}">{{.Verdict.Text}}</p>
<table>
<tr><th>strategy</th>{{range .Units}}<th>{{.}}</th>{{end}}</tr>
{{$units := .Units}}{{range $i, $s := .Strategies}}<tr><td title="{{$s.Doc}}">{{$s.Name}}</td>{{range $units}}<td>{{stat $s .}}</td>{{end}}</tr>
{{end}}</table>
<div class="chart">{{.Chart}}</div>
</section>
{{end}}
</body>
</html>
`))
