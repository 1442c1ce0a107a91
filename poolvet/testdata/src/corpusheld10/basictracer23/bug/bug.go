// Package bug reproduces the shape of opentracing/basictracer-go#23
// (https://github.com/opentracing/basictracer-go/issues/23): basictracer
// cleared finished spans and put them back into a sync.Pool in Finish. Code
// that handed a parent span to asynchronous work and then finished it made
// the worker start its child span from a parent that was already back in
// the pool (cleared, or reused by another request): nil dereferences in
// production. basictracer-go#27 added an option to disable the span pool.
//
// Check: useafterput (hand-off: a goroutine captures the pooled span, then
// Finish, a method of the package that always puts the span back, runs with
// nothing waiting for the goroutine; the report is at that Finish call, the
// Put of this function).
package bug

import (
	"sync"
	"time"
)

type SpanContext struct {
	TraceID uint64
	SpanID  uint64
}

type Span struct {
	tracer    *Tracer
	ctx       SpanContext
	parentID  uint64
	operation string
	start     time.Time
	duration  time.Duration
}

type Tracer struct {
	spanPool sync.Pool
	nextID   func() uint64
	record   func(Span)
}

func NewTracer(nextID func() uint64, record func(Span)) *Tracer {
	t := &Tracer{nextID: nextID, record: record}
	t.spanPool.New = func() any { return new(Span) }
	return t
}

func (t *Tracer) getSpan() *Span {
	sp := t.spanPool.Get().(*Span)
	*sp = Span{}
	return sp
}

func (t *Tracer) StartSpan(op string) *Span {
	sp := t.getSpan()
	sp.tracer = t
	id := t.nextID()
	sp.ctx = SpanContext{TraceID: id, SpanID: id}
	sp.operation = op
	sp.start = time.Now()
	return sp
}

func (t *Tracer) StartChildSpan(parent *Span, op string) *Span {
	sp := t.getSpan()
	sp.tracer = t
	sp.ctx = SpanContext{TraceID: parent.ctx.TraceID, SpanID: t.nextID()}
	sp.parentID = parent.ctx.SpanID
	sp.operation = op
	sp.start = time.Now()
	return sp
}

// Finish records the span and recycles it; the span must not be used after.
func (s *Span) Finish() {
	s.duration = time.Since(s.start)
	t := s.tracer
	t.record(*s)
	*s = Span{}
	t.spanPool.Put(s)
}

func HandleEnqueue(t *Tracer, work func()) {
	parent := t.StartSpan("enqueue")
	go func() {
		child := t.StartChildSpan(parent, "process")
		work()
		child.Finish()
	}()
	parent.Finish() // want `useafterput`
}
