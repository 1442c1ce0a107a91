// Package dirtygetok's getters hand out buffers as they are, none clears:
// callers overwrite what they use; silent.
package dirtygetok

import "sync"

type pool struct {
	p sync.Pool
}

func (p *pool) Get(n int) *[]byte { // want Get:`pool:get`
	bp, ok := p.p.Get().(*[]byte)
	if ok && cap(*bp) >= n {
		*bp = (*bp)[:n]
		return bp
	}
	b := make([]byte, n)
	return &b
}

type pool2 struct {
	p sync.Pool
}

func (p *pool2) Get(n int) *[]byte { // want Get:`pool:get`
	bp, ok := p.p.Get().(*[]byte)
	if !ok {
		b := make([]byte, n)
		return &b
	}
	*bp = (*bp)[:n]
	return bp
}
