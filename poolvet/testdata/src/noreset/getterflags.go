package noreset

import "sync"

// A getter that takes batches from the pool, a user that sets a flag on
// some paths only, and a put helper that clears field by field but not the
// flag (grafana/tempo#5117).
type pushBatch struct {
	traces [][]byte
	ids    [][]byte
	skip   bool
}

var pushBatchPool = sync.Pool{New: func() any { return new(pushBatch) }}

func getPushBatch() *pushBatch {
	return pushBatchPool.Get().(*pushBatch)
}

func putPushBatch(b *pushBatch) {
	if cap(b.traces) > 1024 || cap(b.ids) > 1024 {
		return
	}
	clear(b.traces)
	clear(b.ids)
	b.traces = b.traces[:0]
	b.ids = b.ids[:0]
	pushBatchPool.Put(b) // want `b goes back to the pool with field skip, which encodeBatch sets on an object it gets from the pool and not every user sets, never cleared: putPushBatch clears other fields`
}

func encodeBatch(skip bool, traces, ids [][]byte) int {
	b := getPushBatch()
	defer putPushBatch(b)
	if skip {
		b.skip = true
	}
	b.traces = append(b.traces, traces...)
	b.ids = append(b.ids, ids...)
	return size(b)
}

func size(b *pushBatch) int {
	n := len(b.traces) + len(b.ids)
	if b.skip {
		n++
	}
	return n
}

// A getter that refreshes the object field by field on every Get, and a
// user that also attaches its caller's map, which the getter never
// refreshes (thrasher-corp/gocryptotrader#2296).
type logFields struct {
	name   string
	info   bool
	extra  map[string]any
	output []string
}

var logFieldsPool = sync.Pool{New: func() any { return new(logFields) }}

type subLog struct {
	name string
	info bool
}

func (sl *subLog) fields() *logFields {
	if sl == nil {
		return nil
	}
	f := logFieldsPool.Get().(*logFields)
	f.name = sl.name
	f.info = sl.info
	return f
}

func (f *logFields) emit(msg string) {
	if f.info {
		f.output = append(f.output[:0], f.name, msg)
		for k := range f.extra {
			f.output = append(f.output, k)
		}
	}
	logFieldsPool.Put(f) // want `f goes back to the pool with field extra, which logWith sets on an object it gets from the pool and not every user sets, never cleared: fields sets other fields`
}

func logPlain(sl *subLog, msg string) {
	if f := sl.fields(); f != nil {
		f.emit(msg)
	}
}

func logWith(sl *subLog, extra map[string]any, msg string) {
	if f := sl.fields(); f != nil {
		f.extra = extra
		f.emit(msg)
	}
}

// Silent: the put helper hands the object to a method that clears the flag.
type wireBuf struct {
	data   []byte
	dst    []byte
	pinned bool
}

var wireBufPool = sync.Pool{New: func() any { return new(wireBuf) }}

func getWireBuf() *wireBuf { return wireBufPool.Get().(*wireBuf) }

func (w *wireBuf) zero() {
	w.pinned = false
}

func putWireBuf(w *wireBuf) {
	w.data = w.data[:0]
	w.dst = nil
	w.zero()
	wireBufPool.Put(w)
}

func pinWire(p bool, d []byte) int {
	w := getWireBuf()
	defer putWireBuf(w)
	if p {
		w.pinned = true
	}
	w.data = append(w.data, d...)
	if w.pinned {
		return 1
	}
	return len(w.data)
}

// Silent: every user sets the field on every path from its Get.
type rowBuf struct {
	cols   []int
	vals   []int
	strict bool
}

var rowBufPool = sync.Pool{New: func() any { return new(rowBuf) }}

func getRowBuf() *rowBuf { return rowBufPool.Get().(*rowBuf) }

func putRowBuf(r *rowBuf) {
	r.cols = r.cols[:0]
	r.vals = r.vals[:0]
	rowBufPool.Put(r)
}

func scanRow(cols []int) int {
	r := getRowBuf()
	r.strict = true
	defer putRowBuf(r)
	r.cols = append(r.cols, cols...)
	return len(r.cols) + strictness(r)
}

func scanRowAgain(vals []int) int {
	r := getRowBuf()
	r.strict = true
	defer putRowBuf(r)
	r.vals = append(r.vals, vals...)
	return len(r.vals) + strictness(r)
}

func strictness(r *rowBuf) int {
	if r.strict {
		return 1
	}
	return 0
}

// Silent: the getter sets the field on every object it returns, after a
// comma-ok assertion that panics when it fails (gofiber/fiber's
// AcquireCtx), and a getter that returns another getter's result gets
// what that one sets (nats-server's decodeAppendEntry); users that set it
// again do not make it per-use state.
type hopCtx struct {
	index  int
	path   string
	method string
}

var hopCtxPool = sync.Pool{New: func() any { return new(hopCtx) }}

func acquireHop(path string) *hopCtx {
	c, ok := hopCtxPool.Get().(*hopCtx)
	if !ok {
		panic("acquireHop: not a *hopCtx")
	}
	c.index = -1
	c.path = path
	return c
}

func decodeHop(msg []byte) *hopCtx {
	return acquireHop(string(msg))
}

func releaseHop(c *hopCtx) {
	c.path = ""
	c.method = ""
	hopCtxPool.Put(c)
}

func nextHop(path string) int {
	c := acquireHop(path)
	defer releaseHop(c)
	c.index = 3
	return c.index + len(c.path)
}

func replayHop(msg []byte) int {
	c := decodeHop(msg)
	defer releaseHop(c)
	if len(msg) > 3 {
		c.index = 7
	}
	return c.index
}
