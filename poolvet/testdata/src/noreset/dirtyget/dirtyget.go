// Package dirtyget has a tiered byte pool whose size-class getter clears
// the buffers it hands out and whose fallback getter does not
// (grpc/grpc-go#8670).
package dirtyget

import "sync"

type sizedPool struct {
	pool sync.Pool
	size int
}

func (p *sizedPool) Get(n int) *[]byte { // want Get:`pool:get\+reset`
	bp, ok := p.pool.Get().(*[]byte)
	if !ok {
		b := make([]byte, n, p.size)
		return &b
	}
	b := *bp
	clear(b[:cap(b)])
	*bp = b[:n]
	return bp
}

type fallbackPool struct {
	pool sync.Pool
}

func (p *fallbackPool) Get(n int) *[]byte { // want Get:`pool:get`
	bp, ok := p.pool.Get().(*[]byte)
	if ok && cap(*bp) >= n {
		*bp = (*bp)[:n]
		return bp // want `\(\*fallbackPool\).Get hands out a pooled buffer with the previous user's bytes, while \(\*sizedPool\).Get clears the buffers it hands out`
	}
	b := make([]byte, n)
	return &b
}

// The fix: cleared too; silent.
type fallbackPool2 struct {
	pool sync.Pool
}

func (p *fallbackPool2) Get(n int) *[]byte { // want Get:`pool:get\+reset`
	bp, ok := p.pool.Get().(*[]byte)
	if ok && cap(*bp) >= n {
		clear((*bp)[:cap(*bp)])
		*bp = (*bp)[:n]
		return bp
	}
	b := make([]byte, n)
	return &b
}
