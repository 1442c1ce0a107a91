// Package fixed applies the pattern suggested on
// opentracing/basictracer-go#23: the child span is started before the
// parent is handed off and finished, so the asynchronous work only holds
// its own span, and the parent can safely go back to the pool.
package fixed

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
	child := t.StartChildSpan(parent, "process")
	go func() {
		work()
		child.Finish()
	}()
	parent.Finish()
}
