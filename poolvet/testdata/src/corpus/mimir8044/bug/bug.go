// Package bug reproduces the shape of grafana/mimir#8044
// (https://github.com/grafana/mimir/pull/8044): util.RequestBuffers handed
// out pooled *bytes.Buffers grown to each request's size and CleanUp put
// every one back; requests with huge numbers of exemplars grew buffers that
// then stayed in the pool (an apparent memory leak in the distributor).
//
// Check: unbounded (a Put in a wrapper's clean-up loop, no size bound).
package bug

import (
	"bytes"
	"sync"
)

type RequestBuffers struct {
	p       *sync.Pool
	buffers []*bytes.Buffer
}

func NewRequestBuffers(p *sync.Pool) *RequestBuffers {
	return &RequestBuffers{p: p}
}

func (rb *RequestBuffers) Get(size int) *bytes.Buffer {
	b := rb.p.Get().(*bytes.Buffer)
	b.Grow(size)
	rb.buffers = append(rb.buffers, b)
	return b
}

func (rb *RequestBuffers) CleanUp() {
	for i, b := range rb.buffers {
		b.Reset()
		rb.p.Put(b) // want `capacity check|unbounded`
		rb.buffers[i] = nil
	}
	rb.buffers = rb.buffers[:0]
}
