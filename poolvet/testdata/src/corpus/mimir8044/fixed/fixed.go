// Package fixed is the fix of grafana/mimir#8044
// (https://github.com/grafana/mimir/pull/8044): buffers above 1 MB are not
// returned to the pool.
package fixed

import (
	"bytes"
	"sync"
)

// maxInPoolRequestBufferSize is generous for normal requests; larger ones
// are rare and should not pin memory.
const maxInPoolRequestBufferSize = 1024 * 1024

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
		if b.Cap() <= maxInPoolRequestBufferSize {
			b.Reset()
			rb.p.Put(b)
		}
		rb.buffers[i] = nil
	}
	rb.buffers = rb.buffers[:0]
}
