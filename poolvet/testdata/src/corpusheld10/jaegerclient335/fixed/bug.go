// Package fixed is the fix jaeger-client-go adopted for #335: spans are
// reference counted; the reporter retains a span it queues and releases it
// once the sender is done, and the span goes back to the pool only when the
// last reference is released.
package fixed

import (
	"sync"
	"sync/atomic"
	"time"
)

type Tag struct {
	Key   string
	Value any
}

type Span struct {
	tracer        *Tracer
	operationName string
	start         time.Time
	duration      time.Duration
	tags          []Tag
	sampled       bool
	refs          int32
}

func (s *Span) reset() {
	s.tracer = nil
	s.operationName = ""
	s.start = time.Time{}
	s.duration = 0
	clear(s.tags)
	s.tags = s.tags[:0]
	s.sampled = false
	s.refs = 0
}

var spanPool = sync.Pool{New: func() any { return new(Span) }}

// Retain takes one more reference on the span.
func (s *Span) Retain() *Span {
	atomic.AddInt32(&s.refs, 1)
	return s
}

// Release drops one reference; the last one gives the span back to the pool.
func (s *Span) Release() {
	if atomic.AddInt32(&s.refs, -1) == -1 && s.tracer.poolSpans {
		spanPool.Put(s)
	}
}

type remoteReporter struct {
	queue   chan *Span
	dropped int64
}

// Report queues the span for the sender goroutine; a full queue drops it.
func (r *remoteReporter) Report(span *Span) {
	span.Retain()
	select {
	case r.queue <- span:
	default:
		atomic.AddInt64(&r.dropped, 1)
		span.Release()
	}
}

func (r *remoteReporter) processQueue(send func(*Span)) {
	for span := range r.queue {
		send(span)
		span.Release()
	}
}

type Tracer struct {
	reporter  *remoteReporter
	poolSpans bool
}

func (t *Tracer) StartSpan(name string) *Span {
	var sp *Span
	if t.poolSpans {
		sp = spanPool.Get().(*Span)
		sp.reset()
	} else {
		sp = new(Span)
	}
	sp.tracer = t
	sp.operationName = name
	sp.start = time.Now()
	sp.sampled = true
	return sp
}

func (s *Span) SetTag(key string, value any) {
	s.tags = append(s.tags, Tag{Key: key, Value: value})
}

func (s *Span) Finish() {
	s.duration = time.Since(s.start)
	s.tracer.reportSpan(s)
}

func (t *Tracer) reportSpan(sp *Span) {
	if sp.sampled {
		t.reporter.Report(sp)
	}
	sp.Release()
}
