// Command modproxy writes a file-system module proxy (for GOPROXY=file://...)
// that serves one module, from a directory, at one version. poolkit's
// compatibility checks (benchmarks/zapcheck) use it so that another module's
// unmodified tests, some of which list their dependencies with
// `go mod download -json`, see this checkout as an ordinary dependency
// rather than a replace directive.
//
// Usage:
//
//	go run ./internal/cmd/modproxy -dir . -module github.com/poolkit/pool -version v0.0.0-20260101000000-000000000000 -out /tmp/proxy
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", ".", "module root directory")
	path := flag.String("module", "github.com/poolkit/pool", "module path")
	version := flag.String("version", "v0.0.0-20260101000000-000000000000", "version to serve it as")
	out := flag.String("out", "", "proxy directory to write (required)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "modproxy: -out is required")
		os.Exit(2)
	}
	if err := write(*dir, *path, *version, *out); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

func write(dir, path, version, out string) error {
	mv := module.Version{Path: path, Version: version}
	esc, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	v := filepath.Join(out, esc, "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(v, version+".zip"))
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(f, mv, dir); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(v, version+".mod"), mod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(v, version+".info"), info, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(v, "list"), []byte(version+"\n"), 0o644)
}
