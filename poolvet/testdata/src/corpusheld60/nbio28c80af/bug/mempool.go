// Source: https://github.com/lesismal/nbio/commit/28c80af8c7573fab92632d0c25970b0fd9fe458e
// ("mempool: rm debug, use one pool, return buf to runtime when bigger than
// freeSize", mempool/mempool.go).
//
// Bug: MemPool kept two sync.Pools, smallPool and bigPool. Malloc, Realloc
// and AppendString grow a pooled buffer to whatever size the caller asks
// for (append(..., make([]byte, need)...)), and Free put every buffer back,
// sending anything with cap >= bigSize to bigPool with no upper limit. One
// huge websocket/http message grows a buffer that the pool then keeps and
// hands out again (golang/go#23199).
// Fix: one pool plus a freeSize limit: Malloc hands out plain make([]byte)
// for sizes above freeSize, Realloc only moves small buffers into the pool,
// and Free returns (drops the buffer to the runtime) when cap(buf) >
// freeSize.
//
// Check: unbounded (at the pool.Put in MemPool.Free, which keeps buffers of
// any capacity)
package bug

import (
	"sync"
	"unsafe"
)

type Allocator interface {
	Malloc(size int) []byte
	Realloc(buf []byte, size int) []byte
	Append(buf []byte, more ...byte) []byte
	AppendString(buf []byte, more string) []byte
	Free(buf []byte)
}

// DefaultMemPool .
var DefaultMemPool = New(64, 64)

// MemPool .
type MemPool struct {
	smallSize int
	bigSize   int
	smallPool *sync.Pool
	bigPool   *sync.Pool
}

// New .
func New(smallSize, bigSize int) Allocator {
	if smallSize <= 0 {
		smallSize = 64
	}
	if bigSize <= 0 {
		bigSize = 64 * 1024
	}
	if bigSize < smallSize {
		bigSize = smallSize
	}

	mp := &MemPool{
		smallSize: smallSize,
		bigSize:   bigSize,
		smallPool: &sync.Pool{},
		bigPool:   &sync.Pool{},
	}
	mp.smallPool.New = func() interface{} {
		buf := make([]byte, smallSize)
		return &buf
	}
	mp.bigPool.New = func() interface{} {
		buf := make([]byte, bigSize)
		return &buf
	}
	if bigSize == smallSize {
		mp.bigPool = mp.smallPool
	}

	return mp
}

// Malloc .
func (mp *MemPool) Malloc(size int) []byte {
	pool := mp.smallPool
	if size >= mp.bigSize {
		pool = mp.bigPool
	}

	pbuf := pool.Get().(*[]byte)
	need := size - cap(*pbuf)
	if need > 0 {
		*pbuf = append((*pbuf)[:cap(*pbuf)], make([]byte, need)...)
	}

	return (*pbuf)[:size]
}

// Realloc .
func (mp *MemPool) Realloc(buf []byte, size int) []byte {
	if size <= cap(buf) {
		return buf[:size]
	}

	if cap(buf) < mp.bigSize && size >= mp.bigSize {
		pbuf := mp.bigPool.Get().(*[]byte)
		need := size - cap(*pbuf)
		if need > 0 {
			*pbuf = append((*pbuf)[:cap(*pbuf)], make([]byte, need)...)
		}
		*pbuf = (*pbuf)[:size]
		copy(*pbuf, buf)
		mp.Free(buf)
		return *pbuf
	}
	need := size - cap(buf)
	if need > 0 {
		buf = append(buf[:cap(buf)], make([]byte, need)...)
	}
	return buf[:size]
}

// Append .
func (mp *MemPool) Append(buf []byte, more ...byte) []byte {
	return mp.AppendString(buf, *(*string)(unsafe.Pointer(&more)))
}

// AppendString .
func (mp *MemPool) AppendString(buf []byte, more string) []byte {
	bl := len(buf)
	total := bl + len(more)
	if bl < mp.bigSize && total >= mp.bigSize {
		pbuf := mp.bigPool.Get().(*[]byte)
		need := total - cap(*pbuf)
		if need > 0 {
			*pbuf = append((*pbuf)[:cap(*pbuf)], make([]byte, need)...)
		}
		*pbuf = (*pbuf)[:total]
		copy(*pbuf, buf)
		copy((*pbuf)[bl:], more)
		mp.Free(buf)
		return *pbuf
	}
	return append(buf, more...)
}

// Free .
func (mp *MemPool) Free(buf []byte) {
	size := cap(buf)
	pool := mp.smallPool
	if size >= mp.bigSize {
		pool = mp.bigPool
	}

	pool.Put(&buf) // want `unbounded`
}

// Malloc exports default package method.
func Malloc(size int) []byte {
	return DefaultMemPool.Malloc(size)
}

// AppendString exports default package method.
func AppendString(buf []byte, more string) []byte {
	return DefaultMemPool.AppendString(buf, more)
}

// Free exports default package method.
func Free(buf []byte) {
	DefaultMemPool.Free(buf)
}
