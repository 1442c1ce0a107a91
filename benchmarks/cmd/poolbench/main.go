// Command poolbench measures object-reuse strategies (plain allocation,
// sync.Pool, pool.Pool, free lists, other libraries) on the workloads of
// the benchmarks module, side by side, and says for each workload what to
// do: pool it (with which strategy), or don't pool.
//
// Usage:
//
//	cd benchmarks && go run ./cmd/poolbench [flags]
//
// For every selected workload it runs every strategy in rounds, one run of
// each per round (interleaved, the order rotated every round, so that
// drift in the machine's speed spreads over all of them), and after each
// round from the sixth on it decides the verdict (see report.Verdict). It
// stops measuring the workload when every comparison the verdict needs is
// settled (the confidence interval of the ratio excludes 1 or is narrower
// than ±5%), or at -count runs, or when -cap has passed; a verdict whose
// comparisons are not settled by then says "inconclusive: needs more time
// (-time/-count)". How one run is measured is described on
// benchmarks.Measure.
//
// Standard output gets a legend of the columns, one table and verdict per
// workload as soon as it is measured, and a summary of the verdicts.
// Standard error gets one progress line per workload (and, on a terminal,
// a live line while it runs). Output files are created before any
// measurement, so a bad path fails at once. Bad flags or an unknown
// workload print one line naming the valid choices and exit with status 2;
// -h prints every flag with its default.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/poolkit/pool/benchmarks"
	"github.com/poolkit/pool/benchmarks/report"
	"golang.org/x/term"
)

func main() {
	live := io.Discard
	if term.IsTerminal(int(os.Stderr.Fd())) {
		live = os.Stderr
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, live))
}

// minRuns is the fewest runs per strategy before a verdict: benchmath
// needs 6 for a 95% confidence interval of a median.
const minRuns = 6

// config is the parsed command line.
type config struct {
	workload, strategy string
	count              int
	time, cap          time.Duration
	cpus               []int
	list               bool
	jsonFile           string
	benchfmtFile       string
	htmlFile           string
}

// run is poolbench with its arguments and outputs; it returns the exit
// status. Progress lines go to stderr; live receives the live progress
// line of a terminal (io.Discard otherwise).
func run(args []string, stdout, stderr, live io.Writer) int {
	cfg, ws, err := parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stderr, usage())
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "poolbench: %v\n", err)
		return 2
	}
	if cfg.list {
		for _, w := range ws {
			fmt.Fprintf(stdout, "%-11s %s\n", w.Name, w.Doc)
			for _, s := range w.Strategies {
				fmt.Fprintf(stdout, "    %-15s %s\n", s.Name, s.Doc)
			}
		}
		return 0
	}
	// Create the output files first: a bad path fails before any work.
	var outs []output
	for _, o := range []output{
		{name: cfg.jsonFile, write: report.WriteJSON},
		{name: cfg.benchfmtFile, write: report.WriteBenchfmt},
		{name: cfg.htmlFile, write: report.WriteHTML},
	} {
		if o.name == "" {
			continue
		}
		f, err := os.Create(o.name)
		if err != nil {
			for _, o := range outs {
				o.f.Close()
				os.Remove(o.name)
			}
			fmt.Fprintf(stderr, "poolbench: %v\n", err)
			return 1
		}
		o.f = f
		outs = append(outs, o)
	}
	rep := measure(cfg, ws, stdout, stderr, live)
	status := 0
	for _, o := range outs {
		err := o.write(o.f, rep)
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintf(stderr, "poolbench: writing %s: %v\n", o.name, err)
			status = 1
		} else {
			fmt.Fprintf(stderr, "poolbench: wrote %s\n", o.name)
		}
	}
	return status
}

// An output is a file poolbench writes the report to.
type output struct {
	name  string
	write func(io.Writer, *report.Report) error
	f     *os.File
}

var flagNames = "-workload, -strategy, -count, -time, -cap, -cpu, -list, -json, -benchfmt, -html"

// newFlagSet declares the flags into cfg; cpu receives -cpu's text.
func newFlagSet(cfg *config, cpu *string) *flag.FlagSet {
	fs := flag.NewFlagSet("poolbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.workload, "workload", ".", "workloads to run: an unanchored regular expression matched against their names, as go test -bench")
	fs.StringVar(&cfg.strategy, "strategy", ".", "strategies to run in each workload: an unanchored regular expression")
	fs.IntVar(&cfg.count, "count", 30, fmt.Sprintf("most runs per strategy and workload (the first %d always run; measuring stops earlier once the verdict is settled)", minRuns))
	fs.DurationVar(&cfg.time, "time", 40*time.Millisecond, "duration of the timed phase of one run (a warm-up of a quarter of it comes first)")
	fs.DurationVar(&cfg.cap, "cap", 8*time.Second, "time cap per workload: no new round of runs starts after it (the first rounds always run)")
	fs.StringVar(cpu, "cpu", "", "comma-separated GOMAXPROCS values to run every workload with, e.g. 1,2 (default: the current GOMAXPROCS)")
	fs.BoolVar(&cfg.list, "list", false, "list the workloads and their strategies, and exit")
	fs.StringVar(&cfg.jsonFile, "json", "", "write the report as JSON to this file")
	fs.StringVar(&cfg.benchfmtFile, "benchfmt", "", "write every run in the Go benchmark format to this file (for benchstat)")
	fs.StringVar(&cfg.htmlFile, "html", "", "write a self-contained HTML report (verdicts, tables, charts) to this file")
	return fs
}

func usage() string {
	var b strings.Builder
	b.WriteString("usage: poolbench [flags]\n\n" +
		"Measures every strategy of every workload, interleaved, until each verdict is settled,\n" +
		"and says per workload: pool it (with which strategy), don't pool, or inconclusive.\n\nflags:\n")
	fs := newFlagSet(&config{}, new(string))
	fs.VisitAll(func(f *flag.Flag) {
		name, _ := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "  -%s", f.Name)
		if name != "" {
			fmt.Fprintf(&b, " %s", name)
		}
		fmt.Fprintf(&b, "\n    \t%s", f.Usage)
		switch {
		case f.Name == "cpu" || f.Name == "list":
		case f.DefValue == "":
			b.WriteString(" (default: none)")
		default:
			fmt.Fprintf(&b, " (default %s)", f.DefValue)
		}
		b.WriteString("\n")
	})
	b.WriteString("\nworkloads: " + strings.Join(benchmarks.Names(benchmarks.Workloads()), ", ") + "\n" +
		"strategies: " + strings.Join(benchmarks.StrategyNames(benchmarks.Workloads()), ", ") + "\n")
	return b.String()
}

// parse parses args; every error is one line naming the valid choices.
func parse(args []string) (*config, []*benchmarks.Workload, error) {
	cfg := &config{}
	cpu := new(string)
	fs := newFlagSet(cfg, cpu)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%v; valid flags: %s", err, flagNames)
	}
	if fs.NArg() > 0 {
		return nil, nil, fmt.Errorf("unexpected argument %q; valid flags: %s", fs.Arg(0), flagNames)
	}
	if cfg.count < 1 {
		return nil, nil, fmt.Errorf("bad -count %d; valid: a positive number of runs", cfg.count)
	}
	if cfg.time <= 0 {
		return nil, nil, fmt.Errorf("bad -time %v; valid: a positive duration such as 40ms or 1s", cfg.time)
	}
	if cfg.cap <= 0 {
		return nil, nil, fmt.Errorf("bad -cap %v; valid: a positive duration such as 8s or 1m", cfg.cap)
	}
	cfg.cpus = []int{runtime.GOMAXPROCS(0)}
	if *cpu != "" {
		cfg.cpus = nil
		for f := range strings.SplitSeq(*cpu, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return nil, nil, fmt.Errorf("bad -cpu %q; valid: a comma-separated list of positive GOMAXPROCS values such as 1,2", *cpu)
			}
			cfg.cpus = append(cfg.cpus, n)
		}
	}
	ws, err := benchmarks.Select(cfg.workload, cfg.strategy)
	if err != nil {
		return nil, nil, err
	}
	return cfg, ws, nil
}

// measure runs everything cfg selects, printing each workload's table to
// stdout as soon as it is done and one progress line per workload to
// stderr.
func measure(cfg *config, ws []*benchmarks.Workload, stdout, stderr, live io.Writer) *report.Report {
	rep := report.New(cfg.count, cfg.time.String(), cfg.cap.String())
	report.WriteLegend(stdout)
	start := time.Now()
	total := len(ws) * len(cfg.cpus)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range cfg.cpus {
		runtime.GOMAXPROCS(procs)
		for _, w := range ws {
			res := measureWorkload(cfg, w, procs, live, len(rep.Results)+1, total)
			report.WriteTable(stdout, &res)
			rep.Results = append(rep.Results, res)
			fmt.Fprintf(stderr, "poolbench: [%d/%d] %s (GOMAXPROCS=%d): %d runs per strategy in %.1fs: %s\n",
				len(rep.Results), total, w.Name, procs, res.Runs, res.Elapsed, report.Short(&res))
		}
	}
	report.WriteSummary(stdout, rep)
	fmt.Fprintf(stderr, "poolbench: done in %s\n", time.Since(start).Round(time.Second))
	return rep
}

// measureWorkload runs rounds of w's strategies until the verdict is
// settled, cfg.count runs, or cfg.cap.
func measureWorkload(cfg *config, w *benchmarks.Workload, procs int, live io.Writer, k, total int) report.Result {
	runs := map[string][]benchmarks.Measurement{}
	start := time.Now()
	first := min(minRuns, cfg.count)
	var res report.Result
	for round := 0; ; round++ {
		n := len(w.Strategies)
		for j := range n {
			s := &w.Strategies[(j+round)%n]
			fmt.Fprintf(live, "\r\033[K[%d/%d] %s: round %d, %s (%s so far)", k, total, w.Name, round+1, s.Name,
				time.Since(start).Round(100*time.Millisecond))
			runs[s.Name] = append(runs[s.Name], benchmarks.Measure(w, s, benchmarks.Options{Time: cfg.time}))
		}
		if round+1 < first {
			continue
		}
		res = report.NewResult(w, procs, runs)
		if res.Verdict.Resolved() || round+1 >= cfg.count || time.Since(start) >= cfg.cap {
			break
		}
	}
	fmt.Fprint(live, "\r\033[K")
	res.Elapsed = time.Since(start).Seconds()
	return res
}
