// Package precision holds the shapes behind false reports that poolvet
// once made on popular modules (issue 12). Every check is on and nothing
// here may be reported.
package precision

import (
	"bytes"
	"sync"
	"testing"
)

// A Put wrapper that puts only on some paths (kafka-go style release).
type A struct {
	reuse bool
	buf   []byte
}

var aPool = sync.Pool{New: func() any { return new(A) }}

func Release(a *A) { // want Release:`pool:put\(0\)`
	a.buf = a.buf[:0]
	aPool.Put(a)
}

func (a *A) release() {
	if !a.reuse {
		Release(a)
	}
}

func useA() {
	a := aPool.Get().(*A)
	a.reuse = true
	a.release()
	a.buf = append(a.buf, 1)
	a.release()
}

// The same release deferred by a method whose result the caller uses
// (fiber's Agent.String with Reuse, then ReleaseAgent): the Put depends on
// a.reuse, which the caller set, so its own Release is the only one.
func (a *A) bytesOf() (int, []byte) {
	defer a.release()
	return len(a.buf), append([]byte(nil), a.buf...)
}

func useAResults() int {
	a := aPool.Get().(*A)
	a.reuse = true
	n, _ := a.bytesOf()
	m, _ := a.bytesOf()
	Release(a)
	return n + m
}

// A method that returns true only when it put the receiver.
type R struct {
	n   int
	buf []byte
}

var rPool = sync.Pool{New: func() any { return new(R) }}

func (r *R) recycleIfDone() bool {
	r.n--
	if r.n > 0 {
		return false
	}
	r.buf = r.buf[:0]
	rPool.Put(r)
	return true
}

func consume(r *R) {
	if done := r.recycleIfDone(); !done {
		r.buf = append(r.buf, 'x')
	}
}

// A nil receiver's Release does nothing.
type B struct{ data []byte }

var bPool = sync.Pool{New: func() any { return new(B) }}

func (b *B) Release() { // want Release:`pool:put\(0\)`
	if b == nil {
		return
	}
	b.data = b.data[:0]
	bPool.Put(b)
}

func nilRelease(b *B) *B {
	if b == nil {
		b.Release()
		b = bPool.Get().(*B)
	}
	b.data = append(b.data, 1)
	return b
}

// A size guard on another load of the same field.
const limit = 64 << 10

type W struct{ buf *bytes.Buffer }

var wPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (w *W) Close() {
	if w.buf.Cap() <= limit {
		w.buf.Reset()
		wPool.Put(w.buf)
	}
	w.buf = nil
}

// A size guard checked in a helper.
func canReuse(n int) bool { return n <= limit }

func helperGuard(p *bytes.Buffer) {
	if canReuse(cap(p.Bytes())) {
		p.Reset()
		wPool.Put(p)
	}
}

// A pooled *[]T that only ever receives a fixed number of elements.
type kv struct{ k, v string }

var kvPool = sync.Pool{New: func() any { s := make([]kv, 0, 4); return &s }}

func fixedAppend(a, b kv) int {
	s := kvPool.Get().(*[]kv)
	*s = append((*s)[:0], a, b)
	n := len(*s)
	*s = (*s)[:0]
	kvPool.Put(s)
	return n
}

// A slice field that the pooled object does not own: it borrows the
// caller's slice and hands it back before the Put.
type query struct{ Parts []string }

type lexer struct{ parts []string }

var lexPool = sync.Pool{New: func() any { return new(lexer) }}

func (q *query) parse(s string) {
	l := lexPool.Get().(*lexer)
	l.parts = q.Parts[:0]
	l.parts = append(l.parts, s)
	q.Parts = l.parts
	l.parts = nil
	lexPool.Put(l)
}

// A field moved out and cleared before the Put.
type msg struct{ body []byte }

var msgPool = sync.Pool{New: func() any { return new(msg) }}

func take() []byte {
	m := msgPool.Get().(*msg)
	m.body = append(m.body, "hello"...)
	body := m.body
	m.body = nil
	msgPool.Put(m)
	return body
}

// Correlated flags: the object is used only on the path that did not put it.
func correlated(c bool) int {
	r := rPool.Get().(*R)
	r.buf = r.buf[:0]
	adjusted := false
	if c {
		rPool.Put(r)
	} else {
		adjusted = true
	}
	if adjusted {
		return len(r.buf) + r.n
	}
	return 0
}

// A Reset done by a func-typed hook field.
type resetter interface{ Reset() }

type hookPool[E resetter] struct {
	p     sync.Pool
	reset func(E) bool
}

func (p *hookPool[E]) get() E { return p.p.Get().(E) }

func (p *hookPool[E]) put(v E) {
	if p.reset(v) {
		p.p.Put(v)
	}
}

var hp = &hookPool[*bytes.Buffer]{reset: func(b *bytes.Buffer) bool { b.Reset(); return b.Cap() <= limit }}

func useHook() {
	b := hp.get()
	b.WriteString("x")
	hp.put(b)
}

// A buffer put back on an error path and returned with the error: the
// caller does not look at it (kafka-go compressRecordBatch).
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func releaseBuffer(b *bytes.Buffer) {
	if b != nil && b.Cap() <= limit {
		b.Reset()
		bufPool.Put(b)
	}
}

func compress(fail func() error) (out *bytes.Buffer, err error) {
	out = bufPool.Get().(*bytes.Buffer)
	out.WriteString("x")
	if err = fail(); err != nil {
		releaseBuffer(out)
		return
	}
	return out, nil
}

// A slice field that a method of the type sets to the caller's buffer
// (mongo-driver's valueWriter.reset(dst)): returning it hands back the
// caller's memory, which the next user replaces rather than reuses (no
// useafterput). The idle writer does keep the caller's buffer alive: that
// noreset is true (json-iterator/go#387's shape).
type valueWriter struct {
	buf []byte
	w   *bytes.Buffer
}

var vwPool = sync.Pool{New: func() any { return new(valueWriter) }}

func (vw *valueWriter) reset(buf []byte) { vw.buf = buf }

func putValueWriter(vw *valueWriter) {
	if vw != nil {
		vw.w = nil
		vwPool.Put(vw) // want `vw goes back to the pool still holding, in field buf \(set by reset\)`
	}
}

func appendDoc(dst []byte) []byte {
	vw := vwPool.Get().(*valueWriter)
	defer putValueWriter(vw)
	vw.reset(dst)
	vw.buf = append(vw.buf, 1, 2)
	dst = vw.buf
	return dst
}

// A getter that re-initialises the fields of the object it takes from the
// pool (gonum's getDenseWorkspace): what it returns is as good as reset.
type dense struct {
	rows, cols int
	data       []float64
}

func (d *dense) Reset() { d.rows, d.cols, d.data = 0, 0, d.data[:0] }

var densePool = sync.Pool{New: func() any { return new(dense) }}

func getWorkspace(r, c int) *dense {
	w := densePool.Get().(*dense)
	if cap(w.data) < r*c {
		w.data = make([]float64, r*c)
	}
	w.data = w.data[:r*c]
	w.rows, w.cols = r, c
	return w
}

func putWorkspace(w *dense) { densePool.Put(w) }

func mul(r, c int) float64 {
	w := getWorkspace(r, c)
	w.data[0] = 1
	s := w.data[0]
	putWorkspace(w)
	return s
}

// A pooled *[]T filled from a configured set outside any loop
// (OpenTelemetry's attribute pools): bounded by construction.
var attrPool = sync.Pool{New: func() any { s := make([]kv, 0, 8); return &s }}

type inst struct{ attrs []kv }

func (in *inst) record(err error) int {
	p := attrPool.Get().(*[]kv)
	defer func() {
		*p = (*p)[:0]
		attrPool.Put(p)
	}()
	*p = append(*p, in.attrs...)
	*p = append(*p, kv{"error", err.Error()})
	return len(*p)
}

// Calls that never return end the path: nothing after a t.Fatalf runs
// (fasthttp's client tests).
func releaseR(r *R) { rPool.Put(r) }

func fatalAfterRelease(t *testing.T, fail bool) {
	r := rPool.Get().(*R)
	if fail {
		releaseR(r)
		t.Fatalf("failed")
	}
	r.buf = r.buf[:0]
	releaseR(r)
}

// Methods called on a variable that only ever holds nil are no-ops on a
// nil receiver (zerolog's TestEvent_WithNilEvent).
func nilEvent() []func() {
	var b *B = nil
	fs := []func(){func() { _ = b }}
	b.Release()
	b.Release()
	return fs
}

// setNew gives any pool a New: a pool reached through a parameter may be
// any of them, so no pool of the package is taken to lack New.
var lateNew sync.Pool

func setNew(p *sync.Pool) { p.New = func() any { return new(bytes.Buffer) } }

func init() { setNew(&lateNew) }

func useLateNew() *bytes.Buffer {
	b := lateNew.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// Correlated conditions on the same operands: the second Put runs only when
// the first did not.
type node struct{ v []byte }

var nodePool = sync.Pool{New: func() any { return new(node) }}

func putOnce(xs [][]byte) int {
	n := 0
	for _, x := range xs {
		nd := nodePool.Get().(*node)
		nd.v = append(nd.v[:0], x...)
		if len(x) == 0 {
			nodePool.Put(nd)
			continue
		}
		n += len(nd.v)
		if len(x) > 0 && cap(nd.v) <= 1<<10 {
			nodePool.Put(nd)
		}
	}
	return n
}
