// Package fixed is syndtr/goleveldb#407 with the fix the PR is after:
// the size-class pools hold *[]byte, so Put stores a pointer and does not
// allocate.
package fixed

import "sync"

type BufferPool struct {
	pool     [5]sync.Pool
	baseline [5]int
}

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

// Get returns a buffer of length n; the caller hands the same pointer
// back to Put.
func (p *BufferPool) Get(n int) *[]byte {
	i := p.poolNum(n)
	if i == len(p.baseline) {
		b := make([]byte, n)
		return &b
	}
	if bp, ok := p.pool[i].Get().(*[]byte); ok && cap(*bp) >= n {
		*bp = (*bp)[:n]
		return bp
	}
	b := make([]byte, n, p.baseline[i])
	return &b
}

func (p *BufferPool) Put(bp *[]byte) {
	if cap(*bp) > p.baseline[len(p.baseline)-1] {
		return
	}
	i := p.poolNum(cap(*bp))
	p.pool[i].Put(bp)
}
