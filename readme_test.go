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
// it is gofmt-clean and compiles as pasted (into a file of package main of
// a module that requires this one). An outside reader found its comments
// misaligned for gofmt.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := quickStart.FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no go code block after \"## Quick start\"")
	}
	src := append([]byte("package main\n\n"), m[1]...)
	src = append(src, "\nfunc main() {}\n"...)
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
}
