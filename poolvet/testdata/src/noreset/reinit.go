package noreset

import "sync"

// A WAF re-initialises each pooled transaction field by field after its
// Get, but forgets the flag a rule action sets on one request
// (corazawaf/coraza#1642).
type wafTx struct {
	id            string
	engine        int
	bodyAccess    bool
	bodyLimit     int64
	mimeTypes     []string
	matched       []string
	forceReqBody  bool
	forceRespBody bool
	skip          int
}

type waf struct {
	pool       sync.Pool
	engine     int
	bodyAccess bool
	bodyLimit  int64
	mimeTypes  []string
}

func (w *waf) newTx(id string) *wafTx {
	tx := w.pool.Get().(*wafTx) // want `newTx gets a wafTx from the pool and sets 8 of its fields again, but not forceRespBody, which ctl sets`
	tx.id = id
	tx.engine = w.engine
	tx.bodyAccess = w.bodyAccess
	tx.bodyLimit = w.bodyLimit
	tx.mimeTypes = w.mimeTypes
	tx.matched = tx.matched[:0]
	tx.forceReqBody = false
	tx.skip = 0
	return tx
}

func (tx *wafTx) ctl(name string, on bool) {
	switch name {
	case "forceRequestBody":
		tx.forceReqBody = on
	case "forceResponseBody":
		tx.forceRespBody = on
	}
}

func (w *waf) close(tx *wafTx) {
	w.pool.Put(tx)
}

// The fix sets it too; a close that clears it, or a reset of few fields,
// is not this shape: silent.
type wafTx2 struct {
	id            string
	engine        int
	bodyAccess    bool
	bodyLimit     int64
	mimeTypes     []string
	matched       []string
	forceReqBody  bool
	forceRespBody bool
	skip          int
}

type waf2 struct {
	pool   sync.Pool
	engine int
}

func (w *waf2) newTx(id string) *wafTx2 {
	tx := w.pool.Get().(*wafTx2)
	tx.id = id
	tx.engine = w.engine
	tx.bodyAccess = false
	tx.bodyLimit = 0
	tx.mimeTypes = nil
	tx.matched = tx.matched[:0]
	tx.forceReqBody = false
	tx.forceRespBody = false
	tx.skip = 0
	return tx
}

func (tx *wafTx2) ctl(on bool) { tx.forceRespBody = on }

func (w *waf2) close(tx *wafTx2) { w.pool.Put(tx) }

type wafTx3 struct {
	id            string
	engine        int
	bodyAccess    bool
	bodyLimit     int64
	mimeTypes     []string
	matched       []string
	forceReqBody  bool
	forceRespBody bool
}

type waf3 struct{ pool sync.Pool }

func (w *waf3) newTx(id string) *wafTx3 {
	tx := w.pool.Get().(*wafTx3)
	tx.id = id
	tx.engine = 1
	tx.bodyAccess = true
	tx.bodyLimit = 1 << 20
	tx.mimeTypes = nil
	tx.matched = tx.matched[:0]
	tx.forceReqBody = false
	return tx
}

func (tx *wafTx3) ctl(on bool) { tx.forceRespBody = on }

func (w *waf3) close(tx *wafTx3) {
	tx.forceRespBody = false
	w.pool.Put(tx)
}

// Working state the getter's own traversal sets on every use, a buffer
// each use starts empty, and a struct value written whole before use are
// not forgotten (go-playground/validator's validate): silent at the Get.
// (The Put keeps the caller's top, which the retention rule reports.)
type walkState struct {
	top     any
	partial bool
	ffn     func(string) bool
	excl    map[string]bool
	misc    []string
	errs    []error
	ns      []byte
	parent  any
	cur     struct{ name string }
}

type walker struct{ pool sync.Pool }

func (w *walker) validate(top any, fields []string) []error {
	v := w.pool.Get().(*walkState)
	v.top = top
	v.partial = true
	v.ffn = nil
	v.excl = map[string]bool{}
	v.misc = v.misc[:0]
	v.errs = nil
	v.traverse(v.ns[0:0], fields)
	errs := v.errs
	w.pool.Put(v) // want `v goes back to the pool still holding, in field top, what a user was passed`
	return errs
}

func (v *walkState) traverse(ns []byte, fields []string) {
	for _, f := range fields {
		v.parent = f
		v.cur.name = f
		v.ns = append(ns, f...)
	}
}

// Four fields set again after the Get, and a flag a method sets left
// as the last user had it, which the write path reads (rs/zerolog
// 1c32ee0's Event.stack).
type pooledLogEvent struct {
	buf   []byte
	out   func([]byte)
	level int
	hooks []func()
	trace bool
	done  func()
}

var pooledLogEvents = sync.Pool{New: func() any { return &pooledLogEvent{buf: make([]byte, 0, 256)} }}

func newPooledLogEvent(out func([]byte), level int) *pooledLogEvent {
	e := pooledLogEvents.Get().(*pooledLogEvent) // want `newPooledLogEvent gets a pooledLogEvent from the pool and sets 4 of its fields again, but not trace, which Trace sets`
	e.buf = e.buf[:0]
	e.hooks = nil
	e.out = out
	e.level = level
	return e
}

func (e *pooledLogEvent) Trace() *pooledLogEvent { e.trace = true; return e } // want Trace:`pool:alias`

func (e *pooledLogEvent) Send(msg string) { // want Send:`pool:put\(0\)`
	e.buf = append(e.buf, msg...)
	if e.trace {
		e.buf = append(e.buf, " [trace]"...)
	}
	e.out(e.buf)
	e.out = nil
	if cap(e.buf) <= 1<<16 {
		pooledLogEvents.Put(e)
	}
}

// Four fields set again, and the forgotten one is never read: nothing
// sees its stale value.
type pooledSpanRec struct {
	name    string
	start   int64
	attrs   []string
	parent  *pooledSpanRec
	touched int64
}

var spanRecs = sync.Pool{New: func() any { return new(pooledSpanRec) }}

func newSpanRec(name string, start int64, parent *pooledSpanRec) *pooledSpanRec {
	s := spanRecs.Get().(*pooledSpanRec)
	s.name = name
	s.start = start
	s.attrs = s.attrs[:0]
	s.parent = parent
	return s
}

func (s *pooledSpanRec) touch(now int64) { s.touched = now }

func (s *pooledSpanRec) end() string {
	n := s.name
	s.parent = nil
	spanRecs.Put(s)
	return n
}

// Four fields set again, the rest cleared by a reset that overwrites the
// whole object before the Put.
type pooledQueryRec struct {
	stmt       string
	args       []any
	page       int
	timeout    int64
	idempotent bool
}

var queryRecs = sync.Pool{New: func() any { return new(pooledQueryRec) }}

func newQueryRec(stmt string, args []any) *pooledQueryRec {
	q := queryRecs.Get().(*pooledQueryRec)
	q.stmt = stmt
	q.args = args
	q.page = 0
	q.timeout = 0
	return q
}

func (q *pooledQueryRec) Idempotent(v bool) *pooledQueryRec { q.idempotent = v; return q } // want Idempotent:`pool:alias`

func (q *pooledQueryRec) retryable() bool { return q.idempotent }

func (q *pooledQueryRec) reset() { *q = pooledQueryRec{} }

func (q *pooledQueryRec) release() {
	q.reset()
	queryRecs.Put(q)
}

// Four fields set again, and the put path puts only objects whose link
// is already nil.
type pooledLRUNode struct {
	key     string
	val     []byte
	hits    int
	created int64
	prev    *pooledLRUNode
}

var lruNodes = sync.Pool{New: func() any { return new(pooledLRUNode) }}

func newLRUNode(key string, val []byte, now int64) *pooledLRUNode {
	n := lruNodes.Get().(*pooledLRUNode)
	n.key = key
	n.val = val
	n.hits = 0
	n.created = now
	return n
}

func (n *pooledLRUNode) setPrev(p *pooledLRUNode) { n.prev = p }

func (n *pooledLRUNode) linked() bool { return n.prev != nil }

func (n *pooledLRUNode) free() {
	if n.prev == nil {
		n.val = nil
		lruNodes.Put(n)
	}
}
