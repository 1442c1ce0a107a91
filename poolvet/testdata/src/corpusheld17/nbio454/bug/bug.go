// Package bug reproduces the shape of lesismal/nbio#454
// (https://github.com/lesismal/nbio/issues/454, "[]byte 不能进sync.Pool",
// "[]byte must not go into a sync.Pool"; the follow-up
// https://github.com/lesismal/nbio/issues/461 confirms mempool's internal
// []byte was changed to *[]byte): the mempool allocator kept plain []byte
// values in its sync.Pool, so every Free boxed a slice header into an
// interface, one allocation per Free on the hottest path of the server.
//
// Check: nonpointer (a []byte, not a pointer, is put into a sync.Pool).
package bug

import "sync"

// Allocator hands out and takes back the buffers of connections.
type Allocator interface {
	Malloc(size int) []byte
	Realloc(buf []byte, size int) []byte
	Free(buf []byte)
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
		return buf
	}
	return mp
}

// Malloc returns a buffer of length size.
func (mp *MemPool) Malloc(size int) []byte {
	if size > mp.freeSize {
		return make([]byte, size)
	}
	buf := mp.pool.Get().([]byte)
	if cap(buf) < size {
		buf = append(buf[:cap(buf)], make([]byte, size-cap(buf))...)
	}
	return buf[:size]
}

// Realloc grows buf to size, moving it to a new buffer when it must.
func (mp *MemPool) Realloc(buf []byte, size int) []byte {
	if size <= cap(buf) {
		return buf[:size]
	}
	newBuf := mp.Malloc(size)
	copy(newBuf, buf)
	mp.Free(buf)
	return newBuf
}

// Free gives buf back to the pool unless it is too large to keep.
func (mp *MemPool) Free(buf []byte) {
	if cap(buf) > mp.freeSize {
		return
	}
	mp.pool.Put(buf) // want `nonpointer`
}
