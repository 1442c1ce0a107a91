// Source: https://github.com/jaegertracing/jaeger-client-go/pull/381
// (commit https://github.com/jaegertracing/jaeger-client-go/commit/896f2abd37e099bae3eae942250d1a37e4bdce0b,
// "Fix the span allocation in the pool").
//
// Fixed twin: spans carry a reference counter (Retain/Release) and are
// allocated through a SpanAllocator; the remote reporter Retains the span
// before queueing it and Releases it after processing, and reportSpan calls
// sp.Release() so the span only goes back to the pool when the last user is
// done with it.
//
// Check: useafterput (reported in the bug twin at t.spanPool.Put in
// reportSpan; nothing to report here)
package fixed

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
	// referenceCounter used to increase the lifetime of
	// the object before return it into the pool.
	referenceCounter int32

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

// Finish returns the span back to the allocator unless the reporter
// retains it again.
func (s *Span) Finish() {
	s.Lock()
	s.duration = time.Since(s.startTime)
	s.Unlock()
	// call reportSpan even for non-sampled traces, to return span to the pool
	// and update metrics counter
	s.tracer.reportSpan(s)
}

// Retain increases object counter to increase the lifetime of the object
func (s *Span) Retain() *Span {
	atomic.AddInt32(&s.referenceCounter, 1)
	return s
}

// Release decrements object counter and return to the
// allocator manager  when counter will below zero
func (s *Span) Release() {
	if atomic.AddInt32(&s.referenceCounter, -1) == -1 {
		s.tracer.spanAllocator.Put(s)
	}
}

// reset span state and release unused data
func (s *Span) reset() {
	s.context = emptyContext
	s.operationName = ""
	s.tracer = nil
	s.startTime = time.Time{}
	s.duration = 0
	atomic.StoreInt32(&s.referenceCounter, 0)
	s.tags = s.tags[:0]
}

// SpanAllocator abstraction of managign span allocations
type SpanAllocator interface {
	Get() *Span
	Put(*Span)
}

type syncPollSpanAllocator struct {
	spanPool sync.Pool
}

func newSyncPollSpanAllocator() SpanAllocator {
	return &syncPollSpanAllocator{
		spanPool: sync.Pool{New: func() interface{} {
			return &Span{}
		}},
	}
}

func (pool *syncPollSpanAllocator) Get() *Span {
	return pool.spanPool.Get().(*Span)
}

func (pool *syncPollSpanAllocator) Put(span *Span) {
	span.reset()
	pool.spanPool.Put(span)
}

type simpleSpanAllocator struct{}

func (pool simpleSpanAllocator) Get() *Span {
	return &Span{}
}

func (pool simpleSpanAllocator) Put(span *Span) {
	// since finished spans are not reused, no need to reset them
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
	// Need to retain the span otherwise it will be released
	case r.queue <- reporterQueueItem{span: span.Retain()}:
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
		span.Release()
	}
}

type Tracer struct {
	serviceName string
	reporter    Reporter

	// allocator of Span objects
	spanAllocator SpanAllocator
}

func NewTracer(serviceName string, reporter Reporter, poolSpans bool) *Tracer {
	t := &Tracer{
		serviceName:   serviceName,
		reporter:      reporter,
		spanAllocator: simpleSpanAllocator{},
	}
	if poolSpans {
		t.spanAllocator = newSyncPollSpanAllocator()
	}
	return t
}

// newSpan returns an instance of a clean Span object.
func (t *Tracer) newSpan() *Span {
	return t.spanAllocator.Get()
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
	// Note: if the reporter is processing Span asynchronously need to Retain() it
	// otherwise, in the racing condition will be rewritten span data before it will be sent
	if sp.context.IsSampled() {
		t.reporter.Report(sp)
	}

	sp.Release()
}
