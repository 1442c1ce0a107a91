package advise_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/poolkit/pool/advise"
)

// The end-to-end tests build cmd/pooladvise and run it, as a user would,
// inside testdata/synth: a module whose lines allocate in known ways, each
// marked with a comment "// want <verdict> <type>".

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	profOnce  sync.Once
	profPath  string
	profErr   error
)

func pooladvise(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pooladvise-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "pooladvise")
		out, err := exec.Command("go", "build", "-o", binPath, "./cmd/pooladvise").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	if profPath != "" {
		os.RemoveAll(filepath.Dir(profPath))
	}
	os.Exit(code)
}

const synthDir = "testdata/synth"

// synthProfile runs the synth benchmarks once with -memprofile.
func synthProfile(t *testing.T) string {
	t.Helper()
	profOnce.Do(func() {
		dir, err := filepath.Abs(synthDir)
		if err != nil {
			profErr = err
			return
		}
		var run *advise.Run
		run, profErr = advise.RunBench(dir, ".", ".", "-benchtime", "200x")
		if run != nil {
			profPath = run.Profile
		}
	})
	if profErr != nil {
		t.Fatal(profErr)
	}
	return profPath
}

type want struct {
	pos, verdict, typ string
}

// wants reads the "// want verdict type" comments of the synth sources.
func wants(t *testing.T) []want {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(synthDir, "*.go"))
	var ws []want
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			_, c, ok := strings.Cut(sc.Text(), "// want ")
			if !ok {
				continue
			}
			fs := strings.Fields(c)
			ws = append(ws, want{fmt.Sprintf("%s:%d", filepath.Base(name), n), fs[0], fs[1]})
		}
		f.Close()
	}
	if len(ws) < 5 {
		t.Fatalf("got %d want comments in %s; want at least 5", len(ws), synthDir)
	}
	return ws
}

type output struct {
	Sites []advise.Site `json:"sites"`
}

func run(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(pooladvise(t), args...)
	cmd.Dir = synthDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pooladvise %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func runJSON(t *testing.T, args ...string) output {
	t.Helper()
	out := run(t, append([]string{"-json"}, args...)...)
	var o output
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("decoding %s: %v", out, err)
	}
	return o
}

func checkSites(t *testing.T, o output, ws []want) {
	t.Helper()
	byPos := map[string]advise.Site{}
	for _, s := range o.Sites {
		byPos[s.Pos] = s
	}
	for _, w := range ws {
		s, ok := byPos[w.pos]
		if !ok {
			t.Errorf("%s: no site; got sites %v", w.pos, positions(o))
			continue
		}
		if s.Verdict != w.verdict || s.Type != w.typ {
			t.Errorf("%s: got %s %s (%s); want %s %s", w.pos, s.Verdict, s.Type, s.Reason, w.verdict, w.typ)
		}
		if !strings.HasPrefix(s.Function, "synth.") {
			t.Errorf("%s: got function %q; want synth.*", w.pos, s.Function)
		}
		if s.AllocBytes <= 0 || s.AllocObjects <= 0 || s.Share <= 0 || s.Share > 1 {
			t.Errorf("%s: got alloc_bytes %d, alloc_objects %d, share %v; want positive, share <= 1", w.pos, s.AllocBytes, s.AllocObjects, s.Share)
		}
		if s.Reason == "" {
			t.Errorf("%s: empty reason", w.pos)
		}
		if (s.Verdict == advise.VerdictPool || s.Verdict == advise.VerdictBytePool) && s.Suggestion == "" {
			t.Errorf("%s: verdict %s without a suggestion", w.pos, s.Verdict)
		}
	}
	// Sorted by estimated benefit: every site to pool comes before every
	// site not to pool.
	seenOther := false
	for _, s := range o.Sites {
		pooled := s.Verdict == advise.VerdictPool || s.Verdict == advise.VerdictBytePool
		if pooled && seenOther {
			t.Errorf("site %s (%s) comes after a site not to pool: %v", s.Pos, s.Verdict, positions(o))
		}
		if !pooled {
			seenOther = true
		}
	}
}

func positions(o output) []string {
	var ps []string
	for _, s := range o.Sites {
		ps = append(ps, s.Pos+" "+s.Verdict+" "+s.Type)
	}
	return ps
}

func TestBench(t *testing.T) {
	o := runJSON(t, "-benchtime", "200x", "-bench", ".")
	checkSites(t, o, wants(t))
	if len(o.Sites) == 0 || o.Sites[0].Type != "*gzip.Writer" {
		t.Errorf("top site: got %v; want the gzip.Writer", positions(o))
	}
	if s := o.Sites[0]; !strings.Contains(s.Suggestion, "pool.Pool[*gzip.Writer]") || !strings.Contains(s.Suggestion, "x.Reset(nil)") {
		t.Errorf("gzip suggestion: got\n%s\nwant a pool.Pool[*gzip.Writer] with a Reset hook", s.Suggestion)
	}
	// Compress returns zw.Close(): an error, not the writer (an outside
	// test got "careful: line 33 returns zw or memory of it" for that).
	if s := o.Sites[0]; strings.Contains(s.Suggestion, "careful") {
		t.Errorf("gzip suggestion: got\n%s\nwant no caution about returning the writer", s.Suggestion)
	}
	// The saving is related to the benchmark: per op, or (when the model
	// over-counts on a loaded machine) said to exceed its time.
	if s := o.Sites[0]; !strings.Contains(s.Reason, "/op of BenchmarkGzip") && !strings.Contains(s.Reason, "all of BenchmarkGzip's time") {
		t.Errorf("gzip reason: got %q; want the saving related to BenchmarkGzip", s.Reason)
	}
}

func TestProfile(t *testing.T) {
	o := runJSON(t, "-profile", synthProfile(t))
	checkSites(t, o, wants(t))
}

func TestProfileNamedPackages(t *testing.T) {
	o := runJSON(t, "-profile", synthProfile(t), "example.com/synth")
	checkSites(t, o, wants(t))
}

// TestText checks the terminal output: the table, the model, the code.
func TestText(t *testing.T) {
	out := string(run(t, "-profile", synthProfile(t)))
	gz := ""
	for _, w := range wants(t) {
		if w.typ == "*gzip.Writer" {
			gz = w.pos
		}
	}
	for _, w := range []string{"SITE", "VERDICT", gz, "model: saving", "var gzipWriterPool = pool.Pool[*gzip.Writer]{", "bytepool.Get(n)"} {
		if !strings.Contains(out, w) {
			t.Errorf("text output lacks %q:\n%s", w, out)
		}
	}
}

// rewrite writes a copy of the synth profile changed by edit.
func rewrite(t *testing.T, edit func(p *profile.Profile)) string {
	t.Helper()
	f, err := os.Open(synthProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	edit(p)
	path := filepath.Join(t.TempDir(), "edited.pprof")
	w, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(w); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return path
}

// keepTypes keeps the sample types named.
func keepTypes(p *profile.Profile, names ...string) {
	var keep []int
	var sts []*profile.ValueType
	for i, st := range p.SampleType {
		for _, n := range names {
			if st.Type == n {
				keep = append(keep, i)
				sts = append(sts, st)
			}
		}
	}
	for _, s := range p.Sample {
		v := make([]int64, len(keep))
		for j, i := range keep {
			v[j] = s.Value[i]
		}
		s.Value = v
	}
	p.SampleType = sts
	p.DefaultSampleType = ""
}

// TestInuseOnly: a /debug/pprof/heap profile reduced to in-use samples
// cannot tell what is allocated: every verdict is unknown.
func TestInuseOnly(t *testing.T) {
	path := rewrite(t, func(p *profile.Profile) { keepTypes(p, "inuse_objects", "inuse_space") })
	o := runJSON(t, "-profile", path)
	for _, s := range o.Sites {
		if s.Verdict != advise.VerdictUnknown || !strings.Contains(s.Reason, "alloc_space") {
			t.Errorf("%s: got %s (%s); want unknown, saying alloc_space is missing", s.Pos, s.Verdict, s.Reason)
		}
	}
}

// TestAllocOnly: without in-use samples the live ratio is unknown: no
// site gets pool; tiny and retained sites are still told apart.
func TestAllocOnly(t *testing.T) {
	path := rewrite(t, func(p *profile.Profile) { keepTypes(p, "alloc_objects", "alloc_space") })
	o := runJSON(t, "-profile", path)
	var ws []want
	for _, w := range wants(t) {
		if w.verdict == advise.VerdictPool || w.verdict == advise.VerdictBytePool {
			w.verdict = advise.VerdictUnknown
		}
		ws = append(ws, w)
	}
	checkSites(t, o, ws)
}

// TestMovedSources: a profile built elsewhere (other paths, -trimpath)
// is matched by package path and file name.
func TestMovedSources(t *testing.T) {
	path := rewrite(t, func(p *profile.Profile) {
		for _, f := range p.Function {
			if strings.HasPrefix(f.Name, "example.com/synth") {
				f.Filename = "/build/elsewhere/synth/" + filepath.Base(f.Filename)
			}
		}
	})
	o := runJSON(t, "-profile", path)
	checkSites(t, o, wants(t))
}

// TestSuggestionCompiles pastes the suggested declarations into a copy of
// the synth package that depends on this repository's pool module, and
// builds it.
func TestSuggestionCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("needs go mod tidy")
	}
	o := runJSON(t, "-profile", synthProfile(t))
	dir := t.TempDir()
	src, _ := filepath.Glob(filepath.Join(synthDir, "*.go"))
	for _, name := range src {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o644)
	}
	root, _ := filepath.Abs("..")
	gomod := fmt.Sprintf("module example.com/synth\n\ngo 1.26.0\n\nrequire github.com/poolkit/pool v0.0.0\n\nreplace github.com/poolkit/pool => %s\n", root)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644)
	var decls strings.Builder
	n := 0
	for _, s := range o.Sites {
		if s.Verdict != advise.VerdictPool {
			continue
		}
		code, _, _ := strings.Cut(s.Suggestion, "\n\n")
		decls.WriteString(code + "\n\n")
		n++
	}
	if n == 0 {
		t.Fatal("no pool suggestion")
	}
	file := "package synth\n\nimport (\n\t\"bytes\"\n\t\"compress/gzip\"\n\n\t\"github.com/poolkit/pool\"\n)\n\nvar _ = bytes.MinRead\nvar _ = gzip.BestSpeed\n\n" + decls.String()
	os.WriteFile(filepath.Join(dir, "pools.go"), []byte(file), 0o644)
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s\n%s", strings.Join(args, " "), err, out, file)
		}
	}
}

func TestParseBench(t *testing.T) {
	in := "goos: linux\nBenchmarkGzip-2    \t     200\t    390074 ns/op\t  814096 B/op\t      20 allocs/op\nBenchmarkX/size=1-8 10 5.5 ns/op\nPASS\n"
	got := advise.ParseBench(strings.NewReader(in))
	want := []advise.BenchResult{
		{Name: "BenchmarkGzip", N: 200, NsPerOp: 390074, BytesPerOp: 814096, AllocsPerOp: 20},
		{Name: "BenchmarkX/size=1", N: 10, NsPerOp: 5.5},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v; want %v", got, want)
	}
}

func TestCostsAlloc(t *testing.T) {
	c := advise.DefaultCosts()
	tests := []struct {
		size float64
		want float64
	}{
		{1, c.AllocNs[0]},
		{float64(c.Sizes[2]), c.AllocNs[2]},
		{float64(c.Sizes[len(c.Sizes)-1]) * 2, 2 * c.AllocNs[len(c.Sizes)-1]},
		{(float64(c.Sizes[1]) + float64(c.Sizes[2])) / 2, (c.AllocNs[1] + c.AllocNs[2]) / 2},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.size), func(t *testing.T) {
			if got := c.Alloc(tt.size); got != tt.want {
				t.Errorf("got %v; want %v", got, tt.want)
			}
		})
	}
}

func TestCalibrate(t *testing.T) {
	c := advise.Calibrate()
	for i := 1; i < len(c.AllocNs); i++ {
		if c.AllocNs[i] < c.AllocNs[i-1] {
			t.Errorf("AllocNs not monotonic: %v", c.AllocNs)
		}
	}
	if c.RoundTripNs <= 0 || c.ClearNsPerByte <= 0 || c.AllocNs[0] <= 0 {
		t.Errorf("got %+v; want positive costs", c)
	}
}

// TestMainPackage: a command's package. Its test binary builds it under its
// import path, so the runtime, and the report, name its functions
// mainprog.f (a profile of the command itself says main.f).
func TestMainPackage(t *testing.T) {
	cmd := exec.Command(pooladvise(t), "-json", "-benchtime", "100x", "-bench", ".")
	cmd.Dir = "testdata/mainprog"
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pooladvise: %v\n%s", err, out)
	}
	var o output
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Sites) == 0 {
		t.Fatal("no sites")
	}
	s := o.Sites[0]
	if s.Pos != "main.go:15" || s.Function != "mainprog.compress" || s.Type != "*gzip.Writer" || s.Verdict != advise.VerdictPool {
		t.Errorf("top site: got %s %s %s %s; want main.go:15 mainprog.compress *gzip.Writer pool", s.Pos, s.Function, s.Type, s.Verdict)
	}
	if !strings.Contains(s.Suggestion, "gzip.NewWriterLevel(nil, gzip.BestSpeed)") || !strings.Contains(s.Suggestion, "zw.Reset(&out)") {
		t.Errorf("suggestion: got\n%s\nwant New with gzip.NewWriterLevel(nil, gzip.BestSpeed) and zw.Reset(&out) after Get", s.Suggestion)
	}
}
