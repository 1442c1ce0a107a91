// Package bug reproduces the shape of MitulShah1/openai-agents-go#90
// (https://github.com/MitulShah1/openai-agents-go/issues/90): traces come
// from a sync.Pool and trace.End puts the trace back while spans still
// point to it. A span that ends later (here: the span of a streamed run,
// ended by the goroutine that drains the stream) reads the id and API key
// of whatever trace reuses the object, exporting under another tenant's
// trace.
//
// Check: useafterput (hand-off: a span holding the pooled trace goes to a
// goroutine, then trace.End puts the trace back without waiting).
package bug

import "sync"

type Processor interface {
	OnSpanEnd(traceID, apiKey, span string)
	OnTraceEnd(traceID string)
}

type trace struct {
	id           string
	exportAPIKey string
	processors   []Processor
}

type span struct {
	trace *trace
	name  string
}

var tracePool = sync.Pool{New: func() any { return new(trace) }}

type Provider struct {
	processors []Processor
}

func (p *Provider) NewTrace(id, apiKey string) *trace {
	t := tracePool.Get().(*trace)
	t.id = id
	t.exportAPIKey = apiKey
	t.processors = p.processors
	return t
}

func (t *trace) StartSpan(name string) *span {
	return &span{trace: t, name: name}
}

// End reports the trace and recycles it.
func (t *trace) End() {
	for _, p := range t.processors {
		p.OnTraceEnd(t.id)
	}
	*t = trace{}
	tracePool.Put(t)
}

func (s *span) End() {
	for _, p := range s.trace.processors {
		p.OnSpanEnd(s.trace.id, s.trace.exportAPIKey, s.name)
	}
}

// RunStreamed traces a streamed agent run: the stream span ends when the
// consumer goroutine has drained the events.
func RunStreamed(p *Provider, id, apiKey string, events <-chan string) {
	t := p.NewTrace(id, apiKey)
	s := t.StartSpan("stream")
	go func() {
		for range events {
		}
		s.End()
	}()
	t.End() // want `useafterput`
}
