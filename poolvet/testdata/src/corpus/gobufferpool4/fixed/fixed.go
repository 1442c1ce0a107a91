// Package fixed is the fix of libp2p/go-buffer-pool#4
// (https://github.com/libp2p/go-buffer-pool/pull/4): the per-class pools
// hold pointers to slices.
package fixed

import (
	"math/bits"
	"sync"
)

type BufferPool struct {
	pools [32]sync.Pool
}

func (p *BufferPool) Get(length int) []byte {
	if length == 0 {
		return nil
	}
	idx := bits.Len32(uint32(length - 1))
	if v := p.pools[idx].Get(); v != nil {
		bp := v.(*[]byte)
		return (*bp)[:length]
	}
	return make([]byte, length, 1<<idx)
}

func (p *BufferPool) Put(buf []byte) {
	c := cap(buf)
	if c == 0 || c&(c-1) != 0 || c > 1<<20 {
		return
	}
	idx := bits.Len32(uint32(c - 1))
	buf = buf[:0]
	p.pools[idx].Put(&buf)
}
