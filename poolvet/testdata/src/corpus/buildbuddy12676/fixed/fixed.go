// Package fixed is the fix of buildbuddy-io/buildbuddy#12676
// (https://github.com/buildbuddy-io/buildbuddy/pull/12676): the pool still
// serves large buffers but does not retain those above a cap.
package fixed

import "sync"

type VariableSizePool struct {
	pool        sync.Pool
	maxRetained int
}

func NewVariableSizeWithMaxRetained(max int) *VariableSizePool {
	return &VariableSizePool{pool: sync.Pool{New: func() any { return new([]byte) }}, maxRetained: max}
}

func (p *VariableSizePool) Get(size int) *[]byte {
	bp := p.pool.Get().(*[]byte)
	if cap(*bp) < size {
		*bp = make([]byte, size)
	}
	*bp = (*bp)[:size]
	return bp
}

func (p *VariableSizePool) Put(bp *[]byte) {
	if cap(*bp) > p.maxRetained {
		return
	}
	p.pool.Put(bp)
}

var bufs = NewVariableSizeWithMaxRetained(256 << 10)

func ReadBlob(size int, fill func([]byte)) {
	bp := bufs.Get(size)
	fill(*bp)
	bufs.Put(bp)
}
