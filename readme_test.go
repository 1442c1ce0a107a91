package pool_test

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// quickStart matches the README's quick start: the first go code block
// after its heading.
var quickStart = regexp.MustCompile("(?s)## Quick start\n.*?```go\n(.*?)```")

// TestReadmeQuickStart checks the README's promise about its quick start:
// it is gofmt-clean, and as pasted into a file of a module that requires
// this one it builds and runs. Outside readers found its comments
// misaligned for gofmt, and later that it had no package clause.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := quickStart.FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no go code block after \"## Quick start\"")
	}
	src := m[1]
	if !bytes.HasPrefix(src, []byte("package main\n")) {
		t.Errorf("quick start does not start with a package clause: it does not compile as pasted")
	}
	if formatted, err := format.Source(src); err != nil {
		t.Fatalf("quick start does not parse: %v", err)
	} else if !bytes.Equal(formatted, src) {
		t.Errorf("quick start is not gofmt-clean; gofmt gives:\n%s", formatted)
	}
	if testing.Short() {
		t.Skip("builds the quick start with the go command")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/quickstart\n\ngo 1.26\n\nrequire github.com/poolkit/pool v0.0.0\n\nreplace github.com/poolkit/pool => " + root + "\n"
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(gotool, "vet", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet of the quick start: %v\n%s", err, out)
	}
	run := exec.Command(gotool, "run", ".")
	run.Dir = dir
	run.Env = cmd.Env
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("go run of the quick start: %v\n%s", err, out)
	}
	if want := "hi\n{Gets:1 Misses:1 Puts:1 "; !bytes.HasPrefix(out, []byte(want)) {
		t.Errorf("go run of the quick start printed %q; want it to start with %q", out, want)
	}
}
