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
package fixed

import (
	"sync"
)

type Allocator interface {
	Malloc(size int) []byte
	Realloc(buf []byte, size int) []byte
	Append(buf []byte, more ...byte) []byte
	AppendString(buf []byte, more string) []byte
	Free(buf []byte)
}

// DefaultMemPool .
var DefaultMemPool = New(1024, 1024*64)

// MemPool .
type MemPool struct {
	bufSize  int
	freeSize int
	pool     *sync.Pool
}

// New .
func New(bufSize, freeSize int) Allocator {
	if bufSize <= 0 {
		bufSize = 64
	}
	if freeSize <= 0 {
		freeSize = 64 * 1024
	}
	if freeSize < bufSize {
		freeSize = bufSize
	}

	mp := &MemPool{
		bufSize:  bufSize,
		freeSize: freeSize,
		pool:     &sync.Pool{},
	}
	mp.pool.New = func() interface{} {
		buf := make([]byte, bufSize)
		return &buf
	}

	return mp
}

// Malloc .
func (mp *MemPool) Malloc(size int) []byte {
	if size > mp.freeSize {
		return make([]byte, size)
	}
	pbuf := mp.pool.Get().(*[]byte)
	n := cap(*pbuf)
	if n < size {
		*pbuf = append((*pbuf)[:n], make([]byte, size-n)...)
	}
	return (*pbuf)[:size]
}

// Realloc .
func (mp *MemPool) Realloc(buf []byte, size int) []byte {
	if size <= cap(buf) {
		return buf[:size]
	}

	if cap(buf) < mp.freeSize {
		pbuf := mp.pool.Get().(*[]byte)
		n := cap(buf)
		if n < size {
			*pbuf = append((*pbuf)[:n], make([]byte, size-n)...)
		}
		*pbuf = (*pbuf)[:size]
		copy(*pbuf, buf)
		mp.Free(buf)
		return *pbuf
	}
	return append(buf[:cap(buf)], make([]byte, size-cap(buf))...)[:size]
}

// Append .
func (mp *MemPool) Append(buf []byte, more ...byte) []byte {
	return append(buf, more...)
}

// AppendString .
func (mp *MemPool) AppendString(buf []byte, more string) []byte {
	return append(buf, more...)
}

// Free .
func (mp *MemPool) Free(buf []byte) {
	if cap(buf) > mp.freeSize {
		return
	}
	mp.pool.Put(&buf)
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
