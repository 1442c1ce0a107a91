package bug

import "sync"

// Allocator is nbio's mempool.Allocator, trimmed.
type Allocator interface {
	Malloc(size int) *[]byte
	Free(buf *[]byte)
}

// MemPool is nbio's sync.Pool backed mempool.MemPool, trimmed.
type MemPool struct {
	bufSize  int
	freeSize int
	pool     *sync.Pool
}

func NewMemPool(bufSize, freeSize int) Allocator {
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

func (mp *MemPool) Malloc(size int) *[]byte {
	var ret []byte
	if size > mp.freeSize {
		ret = make([]byte, size)
		return &ret
	}
	pbuf := mp.pool.Get().(*[]byte)
	n := cap(*pbuf)
	if n < size {
		*pbuf = append((*pbuf)[:n], make([]byte, size-n)...)
	}
	(*pbuf) = (*pbuf)[:size]
	return pbuf
}

func (mp *MemPool) Free(pbuf *[]byte) {
	if pbuf != nil && cap(*pbuf) > 0 {
		if cap(*pbuf) > mp.freeSize {
			return
		}
		mp.pool.Put(pbuf)
	}
}

// Engine is the part of nbhttp.Engine the body reader uses.
type Engine struct {
	MaxHTTPBodySize int
	BodyAllocator   Allocator
}
