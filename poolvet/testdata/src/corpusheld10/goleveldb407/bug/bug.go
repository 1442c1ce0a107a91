// Package bug reproduces the shape of syndtr/goleveldb#407
// (https://github.com/syndtr/goleveldb/pull/407): util.BufferPool keeps
// size-classed sync.Pools of bare []byte slices. Each Put converts the
// slice to an interface, which heap-allocates its header: the PR's
// benchmark shows 24 B and one allocation per Get/Put round trip, gone
// once the pool stores pointers instead of slices.
//
// Check: nonpointer (a []byte put into a size-class sync.Pool).
package bug

import "sync"

type BufferPool struct {
	pool     [5]sync.Pool
	baseline [5]int
}

// NewBufferPool sets up classes from baseline/4 to baseline*4.
func NewBufferPool(baseline int) *BufferPool {
	p := &BufferPool{}
	for i := range p.baseline {
		p.baseline[i] = (baseline / 4) << i
	}
	return p
}

func (p *BufferPool) poolNum(n int) int {
	for i, x := range p.baseline {
		if n <= x {
			return i
		}
	}
	return len(p.baseline)
}

// Get returns a buffer of length n.
func (p *BufferPool) Get(n int) []byte {
	i := p.poolNum(n)
	if i == len(p.baseline) {
		return make([]byte, n)
	}
	if b, ok := p.pool[i].Get().([]byte); ok && cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n, p.baseline[i])
}

// Put recycles b; buffers above the largest class are dropped.
func (p *BufferPool) Put(b []byte) {
	if cap(b) > p.baseline[len(p.baseline)-1] {
		return
	}
	i := p.poolNum(cap(b))
	p.pool[i].Put(b) // want `nonpointer`
}
