// Source: https://github.com/jaegertracing/jaeger-client-go/pull/381
// (commit https://github.com/jaegertracing/jaeger-client-go/commit/896f2abd37e099bae3eae942250d1a37e4bdce0b,
// "Fix the span allocation in the pool").
//
// Bug: with the PoolSpans option, Tracer.reportSpan handed the finished
// span to the reporter and then put it straight back into t.spanPool. The
// remote reporter does not use the span synchronously: Report sends it on
// r.queue and a background goroutine (processQueue) converts and appends it
// later. Meanwhile newSpan could Get the same *Span and overwrite it, so
// spans were corrupted before they were sent (data race reported by -race).
// Fix: spans got a reference counter (Retain/Release) and a SpanAllocator;
// the remote reporter Retains the span before queueing it and Releases it
// after processing, and reportSpan calls sp.Release() instead of Put.
//
// Check: useafterput (at t.spanPool.Put in reportSpan: the span was just
// handed to the reporter's queue/goroutine and is put back while still in use)
package bug

import (
	"sync"
	"sync/atomic"
	"time"
)

type SpanContext struct {
	traceID, spanID uint64
	flags           byte
}

func (c SpanContext) IsSampled() bool { return c.flags&1 == 1 }

var emptyContext = SpanContext{}

type Tag struct {
	key   string
	value interface{}
}

// Span implements opentracing.Span
type Span struct {
	sync.RWMutex

	tracer        *Tracer
	context       SpanContext
	operationName string
	startTime     time.Time
	duration      time.Duration
	tags          []Tag
}

func (s *Span) OperationName() string {
	s.RLock()
	defer s.RUnlock()
	return s.operationName
}

func (s *Span) Finish() {
	s.Lock()
	s.duration = time.Since(s.startTime)
	s.Unlock()
	// call reportSpan even for non-sampled traces, to return span to the pool
	s.tracer.reportSpan(s)
}

type Reporter interface {
	Report(span *Span)
	Close()
}

type Transport interface {
	Append(span *Span) (int, error)
	Flush() (int, error)
}

type reporterQueueItem struct {
	span  *Span
	close *sync.WaitGroup
}

type remoteReporter struct {
	queueLength int64
	sender      Transport
	queue       chan reporterQueueItem
}

func NewRemoteReporter(sender Transport) Reporter {
	reporter := &remoteReporter{
		sender: sender,
		queue:  make(chan reporterQueueItem, 100),
	}
	go reporter.processQueue()
	return reporter
}

// Report passes the span to a background go-routine for submission.
func (r *remoteReporter) Report(span *Span) {
	select {
	case r.queue <- reporterQueueItem{span: span}:
		atomic.AddInt64(&r.queueLength, 1)
	default:
	}
}

func (r *remoteReporter) Close() {
	wg := &sync.WaitGroup{}
	wg.Add(1)
	r.queue <- reporterQueueItem{close: wg}
	wg.Wait()
}

func (r *remoteReporter) processQueue() {
	for item := range r.queue {
		atomic.AddInt64(&r.queueLength, -1)
		if item.close != nil {
			r.sender.Flush()
			item.close.Done()
			return
		}
		span := item.span
		if _, err := r.sender.Append(span); err != nil {
			println("error reporting span", span.OperationName(), err.Error())
		}
	}
}

type Tracer struct {
	serviceName string
	reporter    Reporter

	options struct {
		poolSpans bool
	}
	// pool for Span objects
	spanPool sync.Pool
}

func NewTracer(serviceName string, reporter Reporter, poolSpans bool) *Tracer {
	t := &Tracer{
		serviceName: serviceName,
		reporter:    reporter,
		spanPool: sync.Pool{New: func() interface{} {
			return &Span{}
		}},
	}
	t.options.poolSpans = poolSpans
	return t
}

// newSpan returns an instance of a clean Span object.
// If options.PoolSpans is true, the spans are retrieved from an object pool.
func (t *Tracer) newSpan() *Span {
	if !t.options.poolSpans {
		return &Span{}
	}
	sp := t.spanPool.Get().(*Span)
	sp.context = emptyContext
	sp.tracer = nil
	sp.tags = nil
	return sp
}

func (t *Tracer) StartSpan(operationName string, ctx SpanContext) *Span {
	sp := t.newSpan()
	sp.tracer = t
	sp.context = ctx
	sp.operationName = operationName
	sp.startTime = time.Now()
	return sp
}

func (t *Tracer) reportSpan(sp *Span) {
	if sp.context.IsSampled() {
		t.reporter.Report(sp)
	}
	if t.options.poolSpans {
		t.spanPool.Put(sp) // want `useafterput`
	}
}
