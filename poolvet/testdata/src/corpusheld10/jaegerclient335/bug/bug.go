// Package bug reproduces the shape of jaegertracing/jaeger-client-go#335
// (https://github.com/jaegertracing/jaeger-client-go/issues/335): with
// TracerOptions.PoolSpans(true), finishing a span reported it to the
// RemoteReporter, which only queued the *Span for its background sender
// goroutine, and then the tracer put the span back into its sync.Pool. The
// sender later read a span that another StartSpan had already taken and
// was rewriting (data races, occasional panics). jaeger-client-go#416
// (https://github.com/jaegertracing/jaeger-client-go/issues/416) reported
// the same reportSpan/Report pair panicking again.
//
// Check: useafterput (hand-off: the span is sent on the reporter's queue
// channel by a method of the package, then put back with nothing waiting
// for the sender; the report is at the Put).
package bug

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
}

func (s *Span) reset() {
	s.tracer = nil
	s.operationName = ""
	s.start = time.Time{}
	s.duration = 0
	clear(s.tags)
	s.tags = s.tags[:0]
	s.sampled = false
}

var spanPool = sync.Pool{New: func() any { return new(Span) }}

type remoteReporter struct {
	queue   chan *Span
	dropped int64
}

// Report queues the span for the sender goroutine; a full queue drops it.
func (r *remoteReporter) Report(span *Span) {
	select {
	case r.queue <- span:
	default:
		atomic.AddInt64(&r.dropped, 1)
	}
}

func (r *remoteReporter) processQueue(send func(*Span)) {
	for span := range r.queue {
		send(span)
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
	if t.poolSpans {
		spanPool.Put(sp) // want `useafterput`
	}
}
