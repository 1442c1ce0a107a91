// Package fixed is a fixed twin of jbenet/go-msgio#14
// (https://github.com/jbenet/go-msgio/issues/14): Get allocates a buffer
// of the class size when the pool is empty, and buffers are pooled by
// pointer.
package fixed

import (
	"math/bits"
	"sync"
)

type Pool struct {
	pools [32]sync.Pool
}

func class(length uint32) int { return bits.Len32(length - 1) }

func (p *Pool) Get(length uint32) *[]byte {
	idx := class(length)
	if v, ok := p.pools[idx].Get().(*[]byte); ok {
		return v
	}
	b := make([]byte, 1<<idx)
	return &b
}

func (p *Pool) Put(length uint32, val *[]byte) {
	p.pools[class(length)].Put(val)
}

func Process(p *Pool, msg []byte, handle func([]byte)) {
	bp := p.Get(uint32(len(msg)))
	n := copy(*bp, msg)
	handle((*bp)[:n])
	p.Put(uint32(len(msg)), bp)
}
