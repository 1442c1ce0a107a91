// Package bug reproduces the shape of Azure/adx-mon#212
// (https://github.com/Azure/adx-mon/pull/212): the bytes pool handed out
// buffers of widely varying size and took every one back, so with many 8 KB
// requests and the occasional 1 MB one, all pooled buffers gradually grew
// toward the largest size and memory was wasted; the fix moved to a tiered
// pool.
//
// Check: unbounded (Put through the pool wrapper's Put method, no bound).
package bug

import (
	"bytes"
	"sync"
)

type BytesBufferPool struct {
	pool sync.Pool
}

func NewBytesBufferPool() *BytesBufferPool {
	return &BytesBufferPool{pool: sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 8<<10)) }}}
}

func (p *BytesBufferPool) Get() *bytes.Buffer {
	b := p.pool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func (p *BytesBufferPool) Put(b *bytes.Buffer) {
	p.pool.Put(b) // want `capacity check|unbounded`
}

var pool = NewBytesBufferPool()

func Encode(rows [][]byte, flush func([]byte) error) error {
	b := pool.Get()
	defer pool.Put(b)
	for _, r := range rows {
		b.Write(r)
	}
	return flush(b.Bytes())
}
