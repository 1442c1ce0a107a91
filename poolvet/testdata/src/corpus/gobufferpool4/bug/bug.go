// Package bug reproduces the shape of libp2p/go-buffer-pool#4
// (https://github.com/libp2p/go-buffer-pool/pull/4), see also
// ipfs/kubo#5582: the size-classed BufferPool stored []byte values in its
// per-class sync.Pools, so pool.Put(buf) allocated to convert the slice to
// an interface; it showed up in yamux allocation profiles.
//
// Check: nonpointer (in a size-classed pool).
package bug

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
		return v.([]byte)[:length]
	}
	return make([]byte, length, 1<<idx)
}

func (p *BufferPool) Put(buf []byte) {
	c := cap(buf)
	if c == 0 || c&(c-1) != 0 || c > 1<<20 {
		return
	}
	idx := bits.Len32(uint32(c - 1))
	p.pools[idx].Put(buf[:0]) // want `non-pointer|nonpointer`
}
