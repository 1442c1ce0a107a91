// Package bug reproduces the shape of buildbuddy-io/buildbuddy#12676
// (https://github.com/buildbuddy-io/buildbuddy/pull/12676): a variable-size
// byte buffer pool (a wrapper over sync.Pool) could hand out very large
// buffers, and every one of them went back into the pool, so bursts of
// large cache reads left hundreds of MB retained.
//
// Check: unbounded (through a wrapper pool whose Put keeps buffers of any
// size).
package bug

import "sync"

type VariableSizePool struct {
	pool sync.Pool
}

func NewVariableSize() *VariableSizePool {
	return &VariableSizePool{pool: sync.Pool{New: func() any { return new([]byte) }}}
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
	p.pool.Put(bp) // want `capacity check|unbounded`
}

var bufs = NewVariableSize()

func ReadBlob(size int, fill func([]byte)) {
	bp := bufs.Get(size)
	fill(*bp)
	bufs.Put(bp)
}
