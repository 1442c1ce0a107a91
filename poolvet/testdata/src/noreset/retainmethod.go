package noreset

import (
	"io"
	"strings"
	"sync"
)

// A Get helper that points the pooled iterator at the caller's input
// through a method (iter.resetBytes(data)), and a Put helper that does not
// drop it: the idle iterator pins the last input (json-iterator/go#387).
// The pool is a *sync.Pool field of a config.
type iterConfig struct{ iters *sync.Pool }

type iterator struct {
	buf  []byte
	head int
	err  error
}

func (it *iterator) resetBytes(in []byte) *iterator {
	it.buf = in
	it.head = 0
	return it
}

func (cfg *iterConfig) borrow(data []byte) *iterator {
	it := cfg.iters.Get().(*iterator)
	it.resetBytes(data)
	return it
}

func (cfg *iterConfig) giveBack(it *iterator) {
	it.err = nil
	cfg.iters.Put(it) // want `it goes back to the pool still holding, in field buf \(set by resetBytes\)`
}

// Silent: the Put helper points it at nothing first.
type iterConfig2 struct{ iters *sync.Pool }

func (cfg *iterConfig2) borrow(data []byte) *iterator {
	it := cfg.iters.Get().(*iterator)
	it.resetBytes(data)
	return it
}

func (cfg *iterConfig2) giveBack(it *iterator) {
	it.resetBytes(nil)
	cfg.iters.Put(it)
}

// A context that stores the request, and a writer field reset through a
// method of the sub-object: the sub-object's fields are not the context's
// fields of the same index (gin-gonic/gin#2558's shape).
type respWriter struct {
	w    io.Writer
	size int
}

func (r *respWriter) reset(w io.Writer) { r.w = w; r.size = -1 }

type ginCtx struct {
	writer  respWriter
	request *strings.Reader
	index   int
}

var ginPool = sync.Pool{New: func() any { return new(ginCtx) }}

func serveGin(w io.Writer, req *strings.Reader) {
	c := ginPool.Get().(*ginCtx)
	c.writer.reset(w)
	c.request = req
	c.index = -1
	_, _ = io.Copy(c.writer.w, c.request)
	ginPool.Put(c) // want `c goes back to the pool still holding, in field request`
}

// Silent: the caller's writer is stored in a sub-object, whose Reset method
// clears it before the Put (valyala/quicktemplate's ReleaseWriter).
type qwInner struct {
	w   io.Writer
	err error
	b   []byte
}

func (q *qwInner) Reset() { q.w = nil; q.err = nil }

type qwOuter struct {
	e   int
	n   qwInner
	tag string
}

var qwPool = sync.Pool{New: func() any { return new(qwOuter) }}

func acquireQW(w io.Writer) *qwOuter {
	qw := qwPool.Get().(*qwOuter)
	qw.n.w = w
	return qw
}

func releaseQW(qw *qwOuter) {
	qw.n.Reset()
	qwPool.Put(qw)
}
