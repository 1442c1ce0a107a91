// Package fixed applies the fix proposed in MitulShah1/openai-agents-go#90
// (https://github.com/MitulShah1/openai-agents-go/issues/90): the trace is
// not returned to the pool while a span still references it; the run waits
// for the stream span to end before ending (and recycling) the trace.
package fixed

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

func RunStreamed(p *Provider, id, apiKey string, events <-chan string) {
	t := p.NewTrace(id, apiKey)
	s := t.StartSpan("stream")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range events {
		}
		s.End()
	}()
	<-done
	t.End()
}
