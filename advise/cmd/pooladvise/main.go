// Command pooladvise reads a Go heap profile of your program and says at
// which of your source lines pooling would pay, with which pool, and where
// it would not.
//
//	pooladvise [-json] -profile FILE [packages]
//	pooladvise [-json] -bench REGEXP [package]
//
// See docs/advise.md in github.com/poolkit/pool.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/pprof/profile"
	"github.com/poolkit/pool/advise"
)

func main() {
	var (
		jsonOut   = flag.Bool("json", false, "print one JSON object {\"sites\":[...]}")
		profPath  = flag.String("profile", "", "heap profile `file` (go test -memprofile, /debug/pprof/allocs or /debug/pprof/heap)")
		bench     = flag.String("bench", "", "run the benchmarks matching `regexp` with -benchmem -memprofile, then analyze")
		benchtime = flag.String("benchtime", "", "passed to go test -benchtime with -bench")
		calibrate = flag.Bool("calibrate", false, "measure the cost model on this machine (about half a second) instead of the built-in constants")
		top       = flag.Int("n", 20, "sites shown in the table")
		code      = flag.Int("code", 3, "sites whose suggested code is shown")
	)
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: pooladvise [-json] -profile FILE [packages]\n       pooladvise [-json] -bench REGEXP [package]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if (*profPath == "") == (*bench == "") {
		flag.Usage()
		os.Exit(2)
	}
	opts := advise.Options{Patterns: flag.Args()}
	if *calibrate {
		opts.Costs = advise.Calibrate()
	}
	path := *profPath
	if *bench != "" {
		pkg := "."
		if flag.NArg() > 1 {
			fmt.Fprintln(os.Stderr, "pooladvise: -bench takes one package")
			os.Exit(2)
		}
		if flag.NArg() == 1 {
			pkg = flag.Arg(0)
		}
		var extra []string
		if *benchtime != "" {
			extra = append(extra, "-benchtime", *benchtime)
		}
		run, err := advise.RunBench("", *bench, pkg, extra...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer os.RemoveAll(filepath.Dir(run.Profile))
		if !*jsonOut {
			os.Stdout.Write(run.Output)
			fmt.Println()
		}
		path, opts.Bench, opts.GCCPUNs, opts.GCByBench = run.Profile, run.Results, run.GCCPUNs, run.GCByBench
		opts.Patterns = []string{pkg}
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pooladvise:", err)
		os.Exit(1)
	}
	prof, err := profile.Parse(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pooladvise: %s: %v\n", path, err)
		os.Exit(1)
	}
	rep, err := advise.Analyze(prof, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *jsonOut {
		err = rep.WriteJSON(os.Stdout)
	} else {
		err = rep.WriteText(os.Stdout, *top, *code)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pooladvise:", err)
		os.Exit(1)
	}
}
