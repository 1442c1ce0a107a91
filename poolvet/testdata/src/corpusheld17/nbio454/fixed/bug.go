// Package fixed is the fixed twin of lesismal/nbio#454
// (https://github.com/lesismal/nbio/issues/454): as in the project's fix,
// the allocator hands out and takes back *[]byte, so the pool stores
// pointers and Free no longer allocates.
package fixed

import "sync"

// Allocator hands out and takes back the buffers of connections.
type Allocator interface {
	Malloc(size int) *[]byte
	Realloc(pbuf *[]byte, size int) *[]byte
	Free(pbuf *[]byte)
}

// MemPool is a sync.Pool backed allocator for buffers up to freeSize.
type MemPool struct {
	bufSize  int
	freeSize int
	pool     *sync.Pool
}

// New creates a MemPool.
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
	mp.pool.New = func() any {
		buf := make([]byte, bufSize)
		return &buf
	}
	return mp
}

// Malloc returns a buffer of length size.
func (mp *MemPool) Malloc(size int) *[]byte {
	if size > mp.freeSize {
		buf := make([]byte, size)
		return &buf
	}
	pbuf := mp.pool.Get().(*[]byte)
	if cap(*pbuf) < size {
		*pbuf = append((*pbuf)[:cap(*pbuf)], make([]byte, size-cap(*pbuf))...)
	}
	*pbuf = (*pbuf)[:size]
	return pbuf
}

// Realloc grows *pbuf to size, moving it to a new buffer when it must.
func (mp *MemPool) Realloc(pbuf *[]byte, size int) *[]byte {
	if size <= cap(*pbuf) {
		*pbuf = (*pbuf)[:size]
		return pbuf
	}
	newBuf := mp.Malloc(size)
	copy(*newBuf, *pbuf)
	mp.Free(pbuf)
	return newBuf
}

// Free gives the buffer back to the pool unless it is too large to keep.
func (mp *MemPool) Free(pbuf *[]byte) {
	if cap(*pbuf) > mp.freeSize {
		return
	}
	mp.pool.Put(pbuf)
}
