// Package bug reproduces the shape of grpc/grpc-go#8670
// (https://github.com/grpc/grpc-go/pull/8670): the tiered buffer pool promises
// zeroed buffers. Its size-class pools clear a buffer before handing it out,
// but requests larger than the biggest tier fall through to the simple
// fallback pool, whose Get re-sliced a pooled buffer and returned it with the
// bytes of the previous message still in it. The fix clears the full capacity
// in the fallback pool's Get as well.
//
// Check: noreset (simpleBufferPool.Get hands out a pooled buffer still
// holding the previous user's data).
package bug

import (
	"io"
	"sort"
	"sync"
)

// BufferPool hands out byte buffers of a requested length.
type BufferPool interface {
	Get(length int) *[]byte
	Put(*[]byte)
}

type tieredBufferPool struct {
	sizedPools   []*sizedBufferPool
	fallbackPool simpleBufferPool
}

// NewTieredBufferPool builds a pool with one size class per given size.
func NewTieredBufferPool(poolSizes ...int) BufferPool {
	sort.Ints(poolSizes)
	pools := make([]*sizedBufferPool, len(poolSizes))
	for i, s := range poolSizes {
		pools[i] = &sizedBufferPool{defaultSize: s}
	}
	return &tieredBufferPool{sizedPools: pools}
}

func (p *tieredBufferPool) Get(size int) *[]byte {
	return p.getPool(size).Get(size)
}

func (p *tieredBufferPool) Put(buf *[]byte) {
	p.getPool(cap(*buf)).Put(buf)
}

func (p *tieredBufferPool) getPool(size int) BufferPool {
	idx := sort.Search(len(p.sizedPools), func(i int) bool {
		return p.sizedPools[i].defaultSize >= size
	})
	if idx == len(p.sizedPools) {
		return &p.fallbackPool
	}
	return p.sizedPools[idx]
}

type sizedBufferPool struct {
	pool        sync.Pool
	defaultSize int
}

func (p *sizedBufferPool) Get(size int) *[]byte {
	buf, ok := p.pool.Get().(*[]byte)
	if !ok {
		b := make([]byte, size, p.defaultSize)
		return &b
	}
	b := *buf
	clear(b[:cap(b)])
	*buf = b[:size]
	return buf
}

func (p *sizedBufferPool) Put(buf *[]byte) {
	if cap(*buf) < p.defaultSize {
		return
	}
	p.pool.Put(buf)
}

// maxFallbackBuffer bounds what the fallback pool keeps.
const maxFallbackBuffer = 16 << 20

type simpleBufferPool struct {
	pool sync.Pool
}

func (p *simpleBufferPool) Get(size int) *[]byte {
	bs, ok := p.pool.Get().(*[]byte)
	if ok && cap(*bs) >= size {
		clear((*bs)[:cap(*bs)])
		*bs = (*bs)[:size]
		return bs
	}
	if ok {
		p.pool.Put(bs)
	}
	b := make([]byte, size)
	return &b
}

func (p *simpleBufferPool) Put(buf *[]byte) {
	if cap(*buf) > maxFallbackBuffer {
		return
	}
	p.pool.Put(buf)
}

var defaultPool = NewTieredBufferPool(256, 4<<10, 16<<10, 32<<10, 1<<20)

// ReadMessage reads a length-delimited message body into a pooled buffer; a
// short read leaves the tail of the buffer as it was handed out.
func ReadMessage(r io.Reader, length int, handle func([]byte)) error {
	buf := defaultPool.Get(length)
	defer defaultPool.Put(buf)
	if _, err := r.Read(*buf); err != nil && err != io.EOF {
		return err
	}
	handle(*buf)
	return nil
}
