// Command poolbench measures object-reuse strategies (plain allocation,
// sync.Pool, pool.Pool, free lists, other libraries) on the workloads of
// the benchmarks module, side by side, and says for each workload whether
// pooling pays.
//
// Usage:
//
//	cd benchmarks && go run ./cmd/poolbench [flags]
//
// For every selected workload it runs each strategy -count times,
// interleaved (run 1 of every strategy, then run 2, ...) so that drift in
// the machine's speed spreads over all of them, and prints a table of
// medians with 95% confidence intervals and a verdict, given only when the
// difference is statistically significant. How one run is measured is
// described on benchmarks.Measure.
//
// Flags:
//
//	-workload re   workloads to run (unanchored regexp; default all)
//	-strategy re   strategies to run (unanchored regexp; default all)
//	-count n       runs per strategy (default 6, the fewest for a 95% CI)
//	-time d        target duration of each timed run (default 120ms)
//	-cpu list      GOMAXPROCS values to run with, e.g. 1,2 (default current)
//	-list          list workloads and strategies, and exit
//	-json file     write the report as JSON
//	-benchfmt file write every run in the Go benchmark format (for benchstat)
//	-html file     write a self-contained HTML report with one chart per workload
//
// Progress (workload, runs done, ETA) goes to standard error when it is a
// terminal. Bad flags or an unknown workload print one line naming the
// valid choices and exit with status 2.
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
	progress := io.Discard
	if term.IsTerminal(int(os.Stderr.Fd())) {
		progress = os.Stderr
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, progress))
}

// config is the parsed command line.
type config struct {
	workload, strategy string
	count              int
	time               time.Duration
	cpus               []int
	list               bool
	jsonFile           string
	benchfmtFile       string
	htmlFile           string
}

// run is poolbench with its arguments and outputs; it returns the exit
// status. progress receives the progress line (io.Discard to be quiet).
func run(args []string, stdout, stderr, progress io.Writer) int {
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
	rep := measure(cfg, ws, stdout, progress)
	for _, out := range []struct {
		file  string
		write func(io.Writer, *report.Report) error
	}{
		{cfg.jsonFile, report.WriteJSON},
		{cfg.benchfmtFile, report.WriteBenchfmt},
		{cfg.htmlFile, report.WriteHTML},
	} {
		if out.file == "" {
			continue
		}
		if err := writeFile(out.file, rep, out.write); err != nil {
			fmt.Fprintf(stderr, "poolbench: %v\n", err)
			return 1
		}
	}
	return 0
}

var flagNames = "-workload, -strategy, -count, -time, -cpu, -list, -json, -benchfmt, -html"

func usage() string {
	return "usage: poolbench [-workload re] [-strategy re] [-count n] [-time d] [-cpu list] [-list] [-json file] [-benchfmt file] [-html file]\n" +
		"workloads: " + strings.Join(benchmarks.Names(benchmarks.Workloads()), ", ") + "\n" +
		"strategies: " + strings.Join(benchmarks.StrategyNames(benchmarks.Workloads()), ", ") + "\n"
}

// parse parses args; every error is one line naming the valid choices.
func parse(args []string) (*config, []*benchmarks.Workload, error) {
	cfg := &config{}
	fs := flag.NewFlagSet("poolbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.workload, "workload", ".", "")
	fs.StringVar(&cfg.strategy, "strategy", ".", "")
	fs.IntVar(&cfg.count, "count", 6, "")
	fs.DurationVar(&cfg.time, "time", 120*time.Millisecond, "")
	cpu := fs.String("cpu", "", "")
	fs.BoolVar(&cfg.list, "list", false, "")
	fs.StringVar(&cfg.jsonFile, "json", "", "")
	fs.StringVar(&cfg.benchfmtFile, "benchfmt", "", "")
	fs.StringVar(&cfg.htmlFile, "html", "", "")
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
		return nil, nil, fmt.Errorf("bad -time %v; valid: a positive duration such as 120ms or 1s", cfg.time)
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
// stdout as soon as it is done.
func measure(cfg *config, ws []*benchmarks.Workload, stdout, progress io.Writer) *report.Report {
	rep := report.New(cfg.count, cfg.time.String())
	total := 0
	for _, w := range ws {
		total += len(w.Strategies) * cfg.count * len(cfg.cpus)
	}
	done, start := 0, time.Now()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range cfg.cpus {
		runtime.GOMAXPROCS(procs)
		for wi, w := range ws {
			runs := map[string][]benchmarks.Measurement{}
			for r := range cfg.count {
				for si := range w.Strategies {
					s := &w.Strategies[si]
					fmt.Fprintf(progress, "\r\033[K[%d/%d] %s: run %d/%d, %s — %d/%d runs done, ETA %s",
						wi+1, len(ws), w.Name, r+1, cfg.count, s.Name, done, total, eta(start, done, total))
					runs[s.Name] = append(runs[s.Name], benchmarks.Measure(w, s, benchmarks.Options{Time: cfg.time}))
					done++
				}
			}
			fmt.Fprint(progress, "\r\033[K")
			res := report.NewResult(w, procs, runs)
			report.WriteTable(stdout, &res)
			rep.Results = append(rep.Results, res)
		}
	}
	fmt.Fprintf(progress, "\r\033[Kdone: %d runs in %s\n", total, time.Since(start).Round(time.Second))
	return rep
}

// eta extrapolates the time left from the average run so far.
func eta(start time.Time, done, total int) string {
	if done == 0 {
		return "?"
	}
	left := time.Since(start) / time.Duration(done) * time.Duration(total-done)
	return left.Round(time.Second).String()
}

func writeFile(name string, rep *report.Report, write func(io.Writer, *report.Report) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return f.Close()
}
