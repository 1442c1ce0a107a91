package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/pool/benchmarks/report"
)

func TestBadArguments(t *testing.T) {
	tests := []struct {
		args []string
		want string // in the one line of standard error
	}{
		{[]string{"-workload", "nosuch"}, "valid workloads: logline, replicate, jsondecode, gzip, rows, stackvalue, tinystruct, gcpressure, bloat"},
		{[]string{"-strategy", "nosuch"}, "valid strategies: alloc, syncpool, pool"},
		{[]string{"-workload", "("}, "bad -workload"},
		{[]string{"-nosuch"}, "valid flags: -workload"},
		{[]string{"-count", "0"}, "bad -count"},
		{[]string{"-time", "-1s"}, "bad -time"},
		{[]string{"-cap", "0s"}, "bad -cap"},
		{[]string{"-cpu", "1,x"}, "bad -cpu"},
		{[]string{"extra"}, "unexpected argument"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr, &bytes.Buffer{})
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		if code != 2 || len(lines) != 1 || !strings.Contains(lines[0], tt.want) || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line containing %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestBadOutputPath checks that an output file that cannot be created
// fails at once, before any measurement.
func TestBadOutputPath(t *testing.T) {
	for _, flag := range []string{"-html", "-json", "-benchfmt"} {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := run([]string{flag, "/nonexistent/dir/r.out", "-workload", "gcpressure"}, &stdout, &stderr, &bytes.Buffer{})
		if code != 1 || !strings.Contains(stderr.String(), "/nonexistent/dir/r.out") || stdout.Len() != 0 {
			t.Errorf("%s to a missing directory: exit %d, stdout %q, stderr %q; want exit 1 naming the path, no output", flag, code, stdout.String(), stderr.String())
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s to a missing directory failed after %v; want at once", flag, d)
		}
	}
}

func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr, &bytes.Buffer{}); code != 0 {
		t.Fatalf("-h: exit %d", code)
	}
	help := stderr.String()
	for _, want := range []string{"-workload", "(default .)", "-count", "(default 30)", "-time", "(default 40ms)", "-cap", "(default 8s)",
		"-cpu", "current GOMAXPROCS", "-list", "-json", "-benchfmt", "-html", "stackvalue"} {
		if !strings.Contains(help, want) {
			t.Errorf("-h lacks %q:\n%s", want, help)
		}
	}
}

func TestList(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-list"}, &stdout, &stderr, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, w := range []string{"logline", "replicate", "jsondecode", "gzip", "rows", "stackvalue", "tinystruct", "gcpressure", "bloat", "bytebufferpool", "poolminidle", "libp2p", "grpcmem"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("-list lacks %s", w)
		}
	}
}

// TestRun measures two workloads briefly and checks every output.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	js, bf, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.txt"), filepath.Join(dir, "r.html")
	var stdout, stderr, live bytes.Buffer
	code := run([]string{"-workload", "stackvalue|replicate", "-strategy", "^(alloc|pool|syncpool)$", "-count", "2", "-time", "2ms", "-cpu", "1",
		"-json", js, "-benchfmt", bf, "-html", html}, &stdout, &stderr, &live)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"columns:", "replicate — ", "stackvalue — ", "GOMAXPROCS=1", "verdict: ", "syncpool", "verdicts:",
		// Two runs are too few for any interval: the verdict must say so.
		report.NeedsMoreTime} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	// One progress line per workload, whatever stderr is.
	for _, want := range []string{"poolbench: [1/2] replicate", "poolbench: [2/2] stackvalue", "poolbench: done", "poolbench: wrote " + html} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(live.String(), "round 2") {
		t.Errorf("live progress %q lacks the round", live.String())
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if len(rep.Results) != 2 || rep.Results[0].Workload != "replicate" || len(rep.Results[0].Strategies) != 3 || rep.Results[0].Runs != 2 {
		t.Errorf("JSON results: %+v; want replicate and stackvalue with 3 strategies and 2 runs", rep.Results)
	}
	if data, err = os.ReadFile(bf); err != nil || strings.Count(string(data), "\nBenchmark") != 2*3*2 {
		t.Errorf("benchfmt file (%v):\n%s\nwant 12 result lines", err, data)
	}
	if data, err = os.ReadFile(html); err != nil || strings.Count(string(data), "<svg") != 2*3 {
		t.Errorf("HTML (%v) has %d charts; want 6", err, strings.Count(string(data), "<svg"))
	}
}

// TestStackValueDontPool runs the stack-allocated workload as poolbench
// does by default and checks the verdict the workload exists for.
func TestStackValueDontPool(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("timing verdict: not under -short or -race")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-workload", "stackvalue", "-time", "10ms"}, &stdout, &stderr, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "verdict: don't pool") {
		t.Errorf("stackvalue verdict is not don't pool:\n%s", stdout.String())
	}
}
