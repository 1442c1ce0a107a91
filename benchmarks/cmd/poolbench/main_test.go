package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poolkit/pool/benchmarks/report"
)

func TestBadArguments(t *testing.T) {
	tests := []struct {
		args []string
		want string // in the one line of standard error
	}{
		{[]string{"-workload", "nosuch"}, "valid workloads: logline, replicate, jsondecode, gzip, rows, tinystruct, gcpressure, bloat"},
		{[]string{"-strategy", "nosuch"}, "valid strategies: alloc, syncpool, pool"},
		{[]string{"-workload", "("}, "bad -workload"},
		{[]string{"-nosuch"}, "valid flags: -workload"},
		{[]string{"-count", "0"}, "bad -count"},
		{[]string{"-time", "-1s"}, "bad -time"},
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

func TestList(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-list"}, &stdout, &stderr, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, w := range []string{"logline", "replicate", "jsondecode", "gzip", "rows", "tinystruct", "gcpressure", "bloat", "bytebufferpool", "poolminidle", "libp2p", "grpcmem"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("-list lacks %s", w)
		}
	}
}

// TestRun measures two workloads briefly and checks every output.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	js, bf, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.txt"), filepath.Join(dir, "r.html")
	var stdout, stderr, progress bytes.Buffer
	code := run([]string{"-workload", "tinystruct|replicate", "-strategy", "^(alloc|pool|syncpool)$", "-count", "2", "-time", "2ms", "-cpu", "1",
		"-json", js, "-benchfmt", bf, "-html", html}, &stdout, &stderr, &progress)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %q; want nothing", stderr.String())
	}
	for _, want := range []string{"replicate — ", "tinystruct — ", "GOMAXPROCS=1", "verdict: tinystruct:", "syncpool"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	if !strings.Contains(progress.String(), "ETA") {
		t.Errorf("progress %q lacks an ETA", progress.String())
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if len(rep.Results) != 2 || rep.Results[0].Workload != "replicate" || len(rep.Results[0].Strategies) != 3 {
		t.Errorf("JSON results: %+v; want replicate and tinystruct with 3 strategies", rep.Results)
	}
	if data, err = os.ReadFile(bf); err != nil || strings.Count(string(data), "\nBenchmark") != 2*3*2 {
		t.Errorf("benchfmt file (%v):\n%s\nwant 12 result lines", err, data)
	}
	if data, err = os.ReadFile(html); err != nil || strings.Count(string(data), "<svg") != 2 {
		t.Errorf("HTML (%v) has %d charts; want 2", err, strings.Count(string(data), "<svg"))
	}
}
