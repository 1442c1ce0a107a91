package advise

import (
	"fmt"
	"go/ast"
	"go/types"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
)

// Verdicts.
const (
	VerdictPool     = "pool"      // short-lived, costly to build: pool.Pool[T]
	VerdictBytePool = "bytepool"  // short-lived []byte or buffers of widely varying size
	VerdictDontPool = "dont-pool" // stays live, or too cheap for a pool round trip
	VerdictUnknown  = "unknown"   // the profile cannot tell
)

// Thresholds of the verdicts.
const (
	// LiveRatioMax is the in-use/allocated ratio above which a site's
	// objects are taken to be retained (caches, data): a pool cannot reuse
	// what is still in use.
	LiveRatioMax = 0.2
	// MinBytes is the size per constructed object below which pooling is
	// not advised whatever the cost model says: poolbench's tinystruct
	// workload shows no gain there.
	MinBytes = 64
	// MinGain is the factor by which the allocation cost saved must exceed
	// the cost of a pool round trip and Reset.
	MinGain = 3
	// SpreadMin is the ratio of the 90th to the 10th percentile of object
	// sizes from which sizes are said to vary widely.
	SpreadMin = 4
)

// Site is one allocation site of the user's program and the advice for it.
type Site struct {
	Pos          string  `json:"pos"`           // file:line, relative to the working directory when inside it
	Function     string  `json:"function"`      // pkg.Func of the line
	Type         string  `json:"type"`          // type allocated or constructed, "" when unknown
	AllocBytes   int64   `json:"alloc_bytes"`   // bytes allocated (estimated from samples)
	AllocObjects int64   `json:"alloc_objects"` // objects allocated (estimated from samples)
	Share        float64 `json:"share"`         // of all bytes allocated in the profile
	LiveRatio    float64 `json:"live_ratio"`    // in-use over allocated bytes
	Verdict      string  `json:"verdict"`
	Reason       string  `json:"reason"`
	Suggestion   string  `json:"suggestion"`

	// Benefit is the estimated saving in ns over the whole profile (over
	// the final runs of the benchmarks in -bench mode); negative when
	// pooling costs more than it saves.
	Benefit float64 `json:"-"`
	// Estimate says what Benefit means for the program, in words.
	Estimate string `json:"-"`
}

// Report is the result of Analyze.
type Report struct {
	Sites []Site `json:"sites"`

	Model    string   `json:"-"` // the cost model, with its figures
	Notes    []string `json:"-"` // what the profile cannot tell, and other caveats
	Outer    float64  `json:"-"` // share of allocated bytes outside the user's packages
	Total    int64    `json:"-"` // all allocated bytes in the profile
	HasInuse bool     `json:"-"`
	HasAlloc bool     `json:"-"`
}

// Options configure Analyze.
type Options struct {
	Dir      string        // directory of the user's module; "" for the current one
	Patterns []string      // packages that are the user's code; default ./...
	Costs    *Costs        // cost model; nil for DefaultCosts
	Bench    []BenchResult // results of the benchmark run that wrote the profile, if any
	GCCPUNs  float64       // GC CPU time of that run (ns), 0 if unknown

	// GCByBench is GCCPUNs by top-level benchmark (Run.GCByBench): each
	// benchmark's GC/byte is its GC time over the bytes the profile
	// attributes to it.
	GCByBench map[string]float64
}

type frame struct {
	fn, file string
	line     int
}

type subKey struct {
	file   string
	line   int
	callee string
}

type followKey struct {
	li     *lineInfo
	file   string
	line   int
	callee string
}

type siteAgg struct {
	file                 string
	line                 int
	function             string
	allocObj, allocBytes float64
	inuseObj, inuseBytes float64
	sizes                map[int64]float64     // object size -> objects
	points               map[string][2]float64 // allocation point -> objects, bytes
	typeBytes            map[string]float64
	types                map[string]*lineInfo
	bench                map[string]float64 // benchmark -> alloc cost (ns) saved
	benchBytes           map[string]float64
	allocCost            float64
}

// Analyze attributes the allocations of prof to the user's source lines and
// gives each line a verdict.
func Analyze(prof *profile.Profile, opts Options) (*Report, error) {
	costs := opts.Costs
	if costs == nil {
		costs = DefaultCosts()
	}
	prog, err := loadProgram(opts.Dir, opts.Patterns)
	if err != nil {
		return nil, err
	}
	idx := map[string]int{}
	for i, st := range prof.SampleType {
		idx[st.Type] = i
	}
	ix := func(name string) int {
		if i, ok := idx[name]; ok {
			return i
		}
		return -1
	}
	iAO, iAS, iIO, iIS := ix("alloc_objects"), ix("alloc_space"), ix("inuse_objects"), ix("inuse_space")
	if opts.GCCPUNs > 0 && iAS >= 0 {
		all := 0.0
		for _, s := range prof.Sample {
			all += float64(s.Value[iAS])
		}
		if all > 0 {
			c := *costs
			c.GCNsPerByte = opts.GCCPUNs / all
			c.GCSource = fmt.Sprintf("measured in this run: %s of GC CPU over %s allocated", fmtNs(opts.GCCPUNs), fmtBytes(all))
			costs = &c
		}
	}
	rep := &Report{Model: costs.String(), HasAlloc: iAS >= 0, HasInuse: iIS >= 0}
	if prog.errors > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d errors loading your packages (go vet shows them): lines in files that did not type-check may get no type", prog.errors))
	}
	if iAS < 0 && iIS < 0 {
		return nil, fmt.Errorf("pooladvise: not a heap profile: sample types %v, want alloc_space or inuse_space", sampleTypes(prof))
	}
	if !rep.HasAlloc {
		rep.Notes = append(rep.Notes, "the profile has no alloc_* sample types (only what is in use): it cannot tell how much each site allocates, so every verdict is unknown; take it from /debug/pprof/allocs or go test -memprofile")
	}
	if !rep.HasInuse {
		rep.Notes = append(rep.Notes, "the profile has no inuse_* sample types: it cannot tell whether objects stay live, so sites that would be pooled are unknown")
	}
	val := func(s *profile.Sample, i int) float64 {
		if i < 0 {
			return 0
		}
		return float64(s.Value[i])
	}
	wd := opts.Dir
	if wd == "" {
		wd = "."
	}
	wd, _ = filepath.Abs(wd)

	sites := map[string]*siteAgg{}
	lines := map[subKey]*lineInfo{}
	follows := map[followKey]*lineInfo{}
	benchTotal := map[string]float64{} // benchmark -> bytes allocated under it
	var total, outer float64
	for _, s := range prof.Sample {
		ao, as, io, is := val(s, iAO), val(s, iAS), val(s, iIO), val(s, iIS)
		if !rep.HasAlloc {
			ao, as = io, is // rank by what is live; verdicts are unknown
		}
		total += as
		var frames []frame
		for _, loc := range s.Location {
			for _, l := range loc.Line {
				if l.Function == nil {
					continue
				}
				frames = append(frames, frame{l.Function.Name, l.Function.Filename, int(l.Line)})
			}
		}
		u := -1
		var sf *srcFile
		for i, f := range frames {
			if sf = prog.lookup(f.fn, f.file); sf != nil {
				u = i
				break
			}
		}
		if u < 0 {
			outer += as
			continue
		}
		bench := ""
		for i := len(frames) - 1; i >= u; i-- {
			if prog.lookup(frames[i].fn, frames[i].file) == nil {
				continue
			}
			name := shortFunc(frames[i].fn)
			if dot := strings.Index(name, "."); dot >= 0 && strings.HasPrefix(name[dot+1:], "Benchmark") {
				bench = strings.SplitN(name[dot+1:], ".", 2)[0]
				break
			}
		}
		if bench != "" {
			benchTotal[bench] += as
		}
		callee := ""
		if u > 0 {
			callee = frames[u-1].fn
		}
		k := subKey{sf.path, frames[u].line, callee}
		li, ok := lines[k]
		if !ok {
			li = prog.safeAnalyzeLine(sf, frames[u].line, callee)
			lines[k] = li
		}
		// The object is a parameter: its construction is up the stack.
		liFn := frames[u].fn // the runtime's name of li's function
		for j := u; li.param >= 0 && j+1 < len(frames); j++ {
			caller := prog.lookup(frames[j+1].fn, frames[j+1].file)
			if caller == nil {
				break
			}
			ck := followKey{li, frames[j+1].file, frames[j+1].line, frames[j].fn}
			next, ok := follows[ck]
			if !ok {
				next = prog.followParam(li, caller, frames[j+1].line, frames[j].fn)
				follows[ck] = next
			}
			if next == nil {
				break
			}
			li, liFn = next, frames[j+1].fn
		}
		key := fmt.Sprintf("%s:%d", li.file.path, li.line)
		a := sites[key]
		if a == nil {
			fn := liFn
			if li.fn != nil && (li.line != frames[u].line || li.file != sf) {
				fn = funcPkgPath(liFn) + "." + funcDeclName(li)
			}
			a = &siteAgg{
				file: li.file.path, line: li.line, function: shortFunc(fn),
				sizes: map[int64]float64{}, points: map[string][2]float64{},
				typeBytes: map[string]float64{}, types: map[string]*lineInfo{},
				bench: map[string]float64{}, benchBytes: map[string]float64{},
			}
			sites[key] = a
		}
		a.allocObj += ao
		a.allocBytes += as
		a.inuseObj += io
		a.inuseBytes += is
		size := int64(0)
		if v := s.NumLabel["bytes"]; len(v) > 0 {
			size = v[0]
		} else if ao > 0 {
			size = int64(as / ao)
		}
		if ao > 0 {
			a.sizes[size] += ao
		}
		cost := ao * costs.Alloc(float64(size)) // GC/byte is added below, by benchmark
		a.allocCost += cost
		if bench != "" {
			a.bench[bench] += cost
			a.benchBytes[bench] += as
		}
		pt := fmt.Sprintf("%s:%d<%s:%d", frames[0].fn, frames[0].line, k.file, k.line)
		p := a.points[pt]
		a.points[pt] = [2]float64{p[0] + ao, p[1] + as}
		tn := ""
		if li.typ != nil {
			tn = types.TypeString(li.typ, qualifier(nil))
		}
		a.typeBytes[tn] += as
		if a.types[tn] == nil || li.line == frames[u].line && li.kind != "method" {
			a.types[tn] = li
		}
	}
	rep.Total = int64(total)
	if total > 0 {
		rep.Outer = outer / total
	}
	benches := summarizeBench(opts.Bench, benchTotal)
	// GC/byte by benchmark, where the trace and the profile both have it
	// and the profile sees at least half of what the benchmark reported
	// allocating (b.RunParallel bodies run on goroutines whose stacks do
	// not show the benchmark: their bytes are not counted under it).
	gcPerByte := map[string]float64{}
	for b, ns := range opts.GCByBench {
		if bs := benches[b]; b != "" && ns > 0 && bs != nil && benchTotal[b] > 0 && benchTotal[b] >= bs.runBytes/2 {
			gcPerByte[b] = ns / benchTotal[b]
		}
	}
	if len(gcPerByte) > 1 {
		var parts []string
		for _, b := range sortedKeys(gcPerByte) {
			parts = append(parts, fmt.Sprintf("%s %.3g ns", b, gcPerByte[b]))
		}
		rep.Model += "; GC/byte by benchmark: " + strings.Join(parts, ", ")
	}
	for _, a := range sites {
		rest := a.allocBytes
		for b, by := range a.benchBytes {
			g, ok := gcPerByte[b]
			if !ok {
				continue
			}
			a.allocCost += by * g
			a.bench[b] += by * g
			rest -= by
		}
		a.allocCost += rest * costs.GCNsPerByte
	}
	for _, a := range sites {
		rep.Sites = append(rep.Sites, a.judge(rep, costs, benches, wd, total))
	}
	sort.SliceStable(rep.Sites, func(i, j int) bool {
		a, b := rep.Sites[i], rep.Sites[j]
		if a.Benefit != b.Benefit {
			return a.Benefit > b.Benefit
		}
		if a.AllocBytes != b.AllocBytes {
			return a.AllocBytes > b.AllocBytes
		}
		return a.Pos < b.Pos
	})
	return rep, nil
}

// safeAnalyzeLine is analyzeLine, except that source it does not expect
// makes the line's type unknown instead of stopping the whole report.
func (prog *program) safeAnalyzeLine(sf *srcFile, line int, callee string) (li *lineInfo) {
	defer func() {
		if recover() != nil {
			li = &lineInfo{file: sf, line: line, param: -1}
		}
	}()
	return prog.analyzeLine(sf, line, callee)
}

func sampleTypes(p *profile.Profile) []string {
	var s []string
	for _, st := range p.SampleType {
		s = append(s, st.Type)
	}
	return s
}

func funcDeclName(li *lineInfo) string {
	fd := li.fn
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := types.ExprString(fd.Recv.List[0].Type)
	if i := strings.Index(t, "["); i >= 0 {
		t = t[:i]
	}
	if strings.HasPrefix(t, "*") {
		return "(" + t + ")." + fd.Name.Name
	}
	return t + "." + fd.Name.Name
}

// judge turns the aggregate of a site into its verdict.
func (a *siteAgg) judge(rep *Report, costs *Costs, benches map[string]*benchSum, wd string, total float64) Site {
	// The type of the site: the one most of its bytes are allocated as.
	tn, tb := "", -1.0
	for _, k := range sortedKeys(a.typeBytes) {
		if a.typeBytes[k] > tb {
			tn, tb = k, a.typeBytes[k]
		}
	}
	li := a.types[tn]
	pos := a.file
	if rel, err := filepath.Rel(wd, a.file); err == nil && !strings.HasPrefix(rel, "..") {
		pos = rel
	}
	s := Site{
		Pos:          fmt.Sprintf("%s:%d", pos, a.line),
		Function:     a.function,
		Type:         tn,
		AllocBytes:   int64(math.Round(a.allocBytes)),
		AllocObjects: int64(math.Round(a.allocObj)),
	}
	if total > 0 && rep.HasAlloc {
		s.Share = a.allocBytes / total
	}
	if a.allocBytes > 0 && rep.HasAlloc && rep.HasInuse {
		// Both are estimates from samples; in-use can come out above
		// allocated for sites with few samples.
		s.LiveRatio = min(a.inuseBytes/a.allocBytes, 1)
	}
	if !rep.HasAlloc {
		s.AllocBytes, s.AllocObjects = 0, 0
		s.Verdict = VerdictUnknown
		s.Reason = fmt.Sprintf("%s in use, but the profile has no alloc_space: cannot tell how much this line allocates", fmtBytes(a.inuseBytes))
		return s
	}

	// Constructions: the objects of the allocation point that allocates
	// the most bytes (a constructor's main object, or the buffer itself).
	var constructions, pb float64
	for _, k := range sortedKeys(a.points) {
		if p := a.points[k]; p[1] > pb {
			constructions, pb = p[0], p[1]
		}
	}
	constructions = max(constructions, 1)
	perObj := a.allocBytes / constructions
	resetNs := 0.0
	resetWhy := "Reset is O(1)"
	if li == nil || !cheapReset(li.typ) {
		resetNs = costs.ClearNsPerByte * perObj
		resetWhy = fmt.Sprintf("Reset taken to clear %s", fmtBytes(perObj))
	}
	reuse := costs.RoundTripNs + resetNs
	saving := a.allocCost - constructions*reuse
	allocPer := a.allocCost / constructions
	s.Benefit = math.Min(saving, savingCap(a, benches))
	s.Estimate = estimate(a, saving, constructions, reuse, benches)
	numbers := fmt.Sprintf("%s/object, %s objects: allocating costs ≈ %s each, a Get+Put ≈ %s (%s)",
		fmtBytes(perObj), fmtCount(constructions), fmtNs(allocPer), fmtNs(reuse), resetWhy)

	bench, ops := a.opsInProfile(benches)
	setup := ops > 0 && constructions < 0.05*ops

	p10, p50, p90 := quantile(a.sizes, 0.1), quantile(a.sizes, 0.5), quantile(a.sizes, 0.9)
	spread := float64(p90) / math.Max(float64(p10), 1)
	isBytes := li != nil && isByteSlice(li.typ)
	switch {
	case rep.HasInuse && s.LiveRatio >= LiveRatioMax:
		s.Verdict = VerdictDontPool
		s.Benefit = 0
		s.Reason = fmt.Sprintf("%.0f%% of its bytes are still in use (%s of %s): these objects are retained (a cache or data the program keeps), a pool cannot reuse them",
			100*s.LiveRatio, fmtBytes(a.inuseBytes), fmtBytes(a.allocBytes))
		s.Estimate = "no saving: the objects stay live"
	case li == nil || li.typ == nil || types.IsInterface(li.typ):
		s.Verdict = VerdictUnknown
		s.Reason = "cannot name the type allocated at this line from the source"
		if li != nil && li.callee != nil {
			s.Reason = fmt.Sprintf("the allocations are made inside %s for its own use (boxing arguments, internal buffers): nothing at this line to pool", shortFunc(profName(li.callee)))
		}
	case isString(li.typ):
		s.Verdict = VerdictDontPool
		s.Benefit = math.Min(saving, 0)
		s.Reason = "strings are immutable: a pool cannot hand one out again; build into a pooled buffer and convert only when needed"
	case isFunc(li.typ):
		s.Verdict = VerdictDontPool
		s.Benefit = math.Min(saving, 0)
		s.Reason = "a closure: capture less, or hoist it out of the loop; a pool does not apply"
	case perObj < MinBytes || allocPer < MinGain*reuse:
		s.Verdict = VerdictDontPool
		s.Reason = fmt.Sprintf("too cheap to pool: %s; a pool round trip would save at most %s per object", numbers, fmtNs(math.Max(allocPer-reuse, 0)))
	case li.stored != "":
		s.Verdict = VerdictDontPool
		s.Benefit = 0
		s.Reason = fmt.Sprintf("retained: %s, so it outlives the call and a pool cannot take it back here (a profile written after the container died shows it %.0f%% live)", li.stored, 100*s.LiveRatio)
		if strings.HasPrefix(li.stored, "map growth") {
			s.Reason = li.stored
		}
		s.Estimate = "no saving: the objects are retained"
	case setup:
		s.Verdict = VerdictDontPool
		s.Benefit = 0
		s.Reason = fmt.Sprintf("allocated %s times over about %s ops of %s: set-up of the benchmark, not work done per op; pooling it gains nothing", fmtCount(constructions), fmtCount(ops), bench)
		s.Estimate = "no saving per op"
	case li.kind == "ctor" && needsRetarget(li) && !hasReset(li.typ):
		s.Verdict = VerdictDontPool
		s.Benefit = 0
		s.Reason = fmt.Sprintf("%s is built around what %s is given and has no Reset method to point it at something new: a pool cannot reuse it (pool its buffers instead, if it takes them); %s",
			tn, types.ExprString(ast.Unparen(li.expr).(*ast.CallExpr).Fun), numbers)
		s.Estimate = "no saving: cannot be reused"
	case !rep.HasInuse:
		s.Verdict = VerdictUnknown
		s.Reason = "the profile has no inuse_space: cannot tell whether these objects are short-lived; " + numbers
	case isBytes && li.kind != "method" && spread >= SpreadMin:
		s.Verdict = VerdictBytePool
		s.Reason = fmt.Sprintf("short-lived (%.0f%% live) []byte of widely varying size (p10 %s, p50 %s, p90 %s): size-classed bytepool; %s",
			100*s.LiveRatio, fmtBytes(float64(p10)), fmtBytes(float64(p50)), fmtBytes(float64(p90)), s.Estimate)
	case isBuffer(li.typ) && spread >= SpreadMin && li.kind != "method" && li.kind != "ctor" && li.kind != "new" && li.kind != "var":
		s.Verdict = VerdictBytePool
		s.Reason = fmt.Sprintf("short-lived buffers of widely varying size (p10 %s, p90 %s): bytepool.Buffer learns the size; %s",
			fmtBytes(float64(p10)), fmtBytes(float64(p90)), s.Estimate)
	default:
		s.Verdict = VerdictPool
		s.Reason = fmt.Sprintf("short-lived (%.0f%% live), %s: %s", 100*s.LiveRatio, numbers, s.Estimate)
	}
	if s.Verdict == VerdictDontPool && s.Benefit > 0 || s.Verdict == VerdictUnknown {
		s.Benefit = 0 // dont-pool: nothing to gain; unknown: cannot estimate
	}
	if li != nil && li.returned > 0 && (s.Verdict == VerdictPool || s.Verdict == VerdictBytePool) {
		s.Reason += fmt.Sprintf("; careful: it (or memory of it) is returned at line %d, so Put only where the caller is done with it", li.returned)
	}
	if s.Verdict == VerdictDontPool || s.Verdict == VerdictUnknown {
		if !strings.Contains(s.Reason, s.Estimate) && s.Estimate != "" && s.Verdict == VerdictUnknown {
			s.Reason += "; if short-lived: " + s.Estimate
		}
	}
	s.Suggestion = suggest(s, li, a, p50, p90)
	return s
}

func isFunc(t types.Type) bool { _, ok := under(t).(*types.Signature); return ok }

func isByteSlice(t types.Type) bool {
	s, ok := under(t).(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// isBuffer reports whether t is a growable byte buffer.
func isBuffer(t types.Type) bool {
	switch types.TypeString(t, nil) {
	case "*bytes.Buffer", "*strings.Builder", "*github.com/poolkit/pool/bytepool.Buffer":
		return true
	}
	return false
}

// cheapReset reports whether resetting a t costs O(1).
func cheapReset(t types.Type) bool {
	if t == nil {
		return false
	}
	switch types.TypeString(t, nil) {
	case "*bytes.Buffer", "*strings.Builder", "*bufio.Writer", "*bufio.Reader",
		"*github.com/poolkit/pool/bytepool.Buffer", "*encoding/json.Decoder", "*encoding/json.Encoder":
		return true
	}
	switch under(t).(type) {
	case *types.Slice:
		return true // reused as s[:0], contents overwritten
	}
	return false
}

// needsRetarget reports whether the constructor call of li is given a
// local variable (a writer, a reader) that a reused object must be
// pointed away from.
func needsRetarget(li *lineInfo) bool {
	call, ok := ast.Unparen(li.expr).(*ast.CallExpr)
	if !ok {
		return false
	}
	for _, a := range call.Args {
		if usesLocals(li.file.pkg.TypesInfo, a, li) {
			return true
		}
	}
	return false
}

// hasReset reports whether t has a method named Reset.
func hasReset(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if ms.At(i).Obj().Name() == "Reset" {
			return true
		}
	}
	return false
}

// mainBench returns the benchmark most of the site's bytes come from.
func (a *siteAgg) mainBench() string {
	best, bb := "", 0.0
	for _, k := range sortedKeys(a.benchBytes) {
		if a.benchBytes[k] > bb {
			best, bb = k, a.benchBytes[k]
		}
	}
	return best
}

// opsInProfile estimates how many ops of the site's main benchmark the
// profile covers (all runs, b.N = 1, 100, ...): 0 when unknown.
func (a *siteAgg) opsInProfile(benches map[string]*benchSum) (string, float64) {
	name := a.mainBench()
	b := benches[name]
	if b == nil || b.runBytes <= 0 || b.profBytes <= 0 {
		return name, 0
	}
	return name, b.runOps * b.profBytes / b.runBytes
}

// savingCap is the most a site can save when its profile comes from a
// benchmark run: all of that benchmark's time, in the profile's units.
// Under load the model can estimate more (GC/byte measured high); ranking
// by such a figure put a small []byte site above the gzip.Writer one.
// Without a benchmark there is no cap.
func savingCap(a *siteAgg, benches map[string]*benchSum) float64 {
	b := benches[a.mainBench()]
	if b == nil || b.profBytes <= 0 || b.runBytes <= 0 || b.runNs <= 0 || a.allocBytes <= 0 {
		return math.Inf(1)
	}
	frac := a.benchBytes[a.mainBench()] / a.allocBytes
	// The profile covers every run of the benchmark (b.N = 1, 100, ...);
	// the printed ns/op are of the last: scale by the bytes.
	scale := b.runBytes / b.profBytes
	if frac <= 0 {
		return math.Inf(1)
	}
	return b.runNs / (frac * scale)
}

// estimate turns a saving into words: per op of the benchmark it belongs to
// when the profile comes from a benchmark run, else over the profile.
func estimate(a *siteAgg, saving, constructions, reuse float64, benches map[string]*benchSum) string {
	best := a.mainBench()
	if b := benches[best]; b != nil && b.profBytes > 0 && b.runBytes > 0 && b.runNs > 0 {
		// The share of the benchmark's time: savingCap is that whole time
		// in the profile's units.
		share := saving / savingCap(a, benches)
		if share > 1 {
			return fmt.Sprintf("est. saving more than all of %s's time (%.0f%%): the model over-counts here (GC/byte measured on a loaded machine?); expect most of the allocation cost back, not more", best, 100*share)
		}
		if b.single {
			return fmt.Sprintf("est. saving %s/op of %s's %s/op (%.0f%%)", fmtNs(share*b.nsPerOp), best, fmtNs(b.nsPerOp), 100*share)
		}
		return fmt.Sprintf("est. saving %.0f%% of %s's time", 100*share, best)
	}
	if len(benches) > 0 {
		return fmt.Sprintf("est. saving %s of CPU over the allocations in the profile (not tied to one benchmark: the bodies of b.RunParallel run on goroutines whose stacks do not show it)", fmtNs(saving))
	}
	return fmt.Sprintf("est. saving %s of CPU over the allocations in the profile (no benchmark results to relate it to)", fmtNs(saving))
}
