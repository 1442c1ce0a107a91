package noreset

import "sync"

// A decoded wseries whose decoder sets CreatedTimestamp and Meta only when
// they are on the wire, and a release function that clears the slices but
// not those (grafana/mimir#12652, cortexproject/cortex#7299).

type seriesMeta struct {
	Type    int32
	HelpRef uint32
}

type wseries struct {
	Labels  []string
	Samples []float64
	Created int64
	Meta    seriesMeta
}

var wseriesPool = sync.Pool{New: func() any { return new(wseries) }}

func seriesFromPool() *wseries { return wseriesPool.Get().(*wseries) }

type wire struct {
	labels  []string
	created int64
	meta    *seriesMeta
}

func decodeSeries(w wire) (*wseries, error) {
	s := seriesFromPool()
	s.Labels = append(s.Labels, w.labels...)
	if w.created != 0 {
		s.Created = w.created
	}
	if w.meta != nil {
		s.Meta = *w.meta
	}
	return s, nil
}

func releaseSeries(s *wseries) {
	s.Labels = s.Labels[:0]
	s.Samples = s.Samples[:0]
	wseriesPool.Put(s) // want `s goes back to the pool with fields Created and Meta still set, and a user of the pool reads it before writing it \(stalerelease.go:64\)`
}

// releaseSeriesClean clears them too: fine.
func releaseSeriesClean(s *wseries) {
	s.Labels = s.Labels[:0]
	s.Samples = s.Samples[:0]
	s.Created = 0
	s.Meta.Type, s.Meta.HelpRef = 0, 0
	wseriesPool.Put(s)
}

func ingest(ws []wire, emit func(int64, uint32)) {
	for _, w := range ws {
		s, err := decodeSeries(w)
		if err != nil {
			continue
		}
		emit(s.Created, s.Meta.HelpRef)
		releaseSeries(s)
	}
}

// relCounter is released by a function that clears one field only: no
// sign that it means to reset the object, so the rule stays silent.
type relCounter struct {
	Name string
	N    int64
	Seen int64
}

var relCounterPool = sync.Pool{New: func() any { return new(relCounter) }}

func newCounter(name string, n int64) *relCounter {
	c := relCounterPool.Get().(*relCounter)
	c.Name = name
	if n > 0 {
		c.N = n
	}
	return c
}

func useCounter(name string, n int64) int64 {
	c := newCounter(name, n)
	return c.N + c.Seen
}

func releaseCounter(c *relCounter) {
	c.Name = ""
	relCounterPool.Put(c)
}

// scanState is fmt's ss: the Get path writes the fields of the embedded
// record one by one, and the release function clears two fields; the
// record is not stale (silent).
type scanRecord struct {
	valid bool
	limit int
}

type scanState struct {
	scanRecord
	buf   []byte
	rs    []rune
	count int
}

var scanStates = sync.Pool{New: func() any { return new(scanState) }}

func newScanState(limit int) *scanState {
	s := scanStates.Get().(*scanState)
	s.valid = true
	s.limit = limit
	s.count = 0
	return s
}

func scanAll(limit int) int {
	s := newScanState(limit)
	n := 0
	if s.valid {
		n = s.limit + s.count
	}
	releaseScanState(s)
	return n
}

// restore puts back a saved record, as fmt's free does for a recursive
// scan.
func (s *scanState) restore(old scanRecord) { s.scanRecord = old }

func releaseScanState(s *scanState) {
	s.buf = s.buf[:0]
	s.rs = nil
	scanStates.Put(s)
}

// treeCtx empties its path field on every Get by re-slicing it to zero
// length: that drops the old value, it does not read it (gofiber/fiber's
// treePath; silent).
type treeCtx struct {
	treePath string
	route    *int
	handler  *int
}

var treeCtxs = sync.Pool{New: func() any { return new(treeCtx) }}

func (c *treeCtx) paths(p string) {
	c.treePath = c.treePath[0:0]
	if len(p) >= 3 {
		c.treePath = p[:3]
	}
}

func acquireTreeCtx(p string) *treeCtx {
	c := treeCtxs.Get().(*treeCtx)
	c.paths(p)
	return c
}

func serveTree(p string) int {
	c := acquireTreeCtx(p)
	n := len(c.treePath)
	releaseTreeCtx(c)
	return n
}

func releaseTreeCtx(c *treeCtx) {
	c.route = nil
	c.handler = nil
	treeCtxs.Put(c)
}

// releaseSeriesDefaults sets Created and Meta to the package's defaults,
// not zero: that is a reset too (gookit/slog 4ae7f8a's fix sets
// r.CallerSkip = l.CallerSkip).
var seriesDefaults = struct {
	created int64
	meta    seriesMeta
}{created: -1}

func releaseSeriesDefaults(s *wseries) {
	s.Labels = s.Labels[:0]
	s.Samples = s.Samples[:0]
	s.Created = seriesDefaults.created
	s.Meta = seriesDefaults.meta
	wseriesPool.Put(s)
}
