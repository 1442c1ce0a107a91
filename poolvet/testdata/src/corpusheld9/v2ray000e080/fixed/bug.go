// Package fixed is the fixed twin of v2fly/v2ray-core commit 000e0804e
// (https://github.com/v2fly/v2ray-core/commit/000e0804e8413c812d0500ac39ad131bff30ae72).
// The project's fix: return right after the Put, so the slice goes into
// exactly one pool.
package fixed

import "sync"

// Size of a regular buffer.
const Size = 2 * 1024

const (
	numPools  = 5
	sizeMulti = 4
)

var (
	pool     [numPools]sync.Pool
	poolSize [numPools]uint32
)

func createAllocFunc(size uint32) func() any {
	return func() any {
		b := make([]byte, size)
		return &b
	}
}

func init() {
	size := uint32(Size)
	for i := 0; i < numPools; i++ {
		pool[i] = sync.Pool{
			New: createAllocFunc(size),
		}
		poolSize[i] = size
		size *= sizeMulti
	}
}

func newBytes(size uint32) *[]byte {
	for idx, ps := range poolSize {
		if size <= ps {
			return pool[idx].Get().(*[]byte)
		}
	}
	b := make([]byte, size)
	return &b
}

func freeBytes(bp *[]byte) {
	size := uint32(cap(*bp))
	*bp = (*bp)[0:cap(*bp)]
	for i := numPools - 1; i >= 0; i-- {
		ps := poolSize[i]
		if size >= ps {
			pool[i].Put(bp)
			return
		}
	}
}

// Buffer is a recyclable allocation of a byte array.
type Buffer struct {
	v     *[]byte
	start int32
	end   int32
}

// NewSize returns a buffer of at least size bytes.
func NewSize(size uint32) *Buffer {
	return &Buffer{v: newBytes(size)}
}

// Release recycles the buffer's bytes into the pools.
func (b *Buffer) Release() {
	if b == nil || b.v == nil {
		return
	}
	freeBytes(b.v)
	b.v = nil
	b.start = 0
	b.end = 0
}
