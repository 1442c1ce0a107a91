// Package bug reproduces the shape of nadoo/glider commit 8e81e09
// (https://github.com/nadoo/glider/commit/8e81e09a8f79198a832a4eb53e58b7b9a746e129,
// "pool: optimized the bytes buffer pool"): the proxy's size-classed buffer
// pool (17 sync.Pools of power-of-two []byte) stored the slices themselves.
// GetBuffer/PutBuffer are on every relayed read, and PutBuffer's
// pools[i].Put(buf) converted the slice header to an interface, allocating on
// each call. The fix stores a pointer to the first element (unsafe.SliceData)
// and rebuilds the slice with unsafe.Slice in GetBuffer.
//
// Check: nonpointer (at pools[i].Put(buf) in PutBuffer).
package bug

import (
	"io"
	"math/bits"
	"sync"
)

const (
	// number of pools.
	num     = 17
	maxsize = 1 << (num - 1)
)

var (
	sizes [num]int
	pools [num]sync.Pool
)

func init() {
	for i := 0; i < num; i++ {
		size := 1 << i
		sizes[i] = size
		pools[i].New = func() any {
			return make([]byte, size)
		}
	}
}

// GetBuffer gets a buffer from pool, size should in range: [1, 65536],
// otherwise, this function will call make([]byte, size) directly.
func GetBuffer(size int) []byte {
	if size >= 1 && size <= maxsize {
		i := bits.Len32(uint32(size)) - 1
		if sizes[i] < size {
			i += 1
		}
		return pools[i].Get().([]byte)[:size]
	}
	return make([]byte, size)
}

// PutBuffer puts a buffer into pool.
func PutBuffer(buf []byte) {
	if size := cap(buf); size >= 1 && size <= maxsize {
		i := bits.Len32(uint32(size)) - 1
		if sizes[i] == size {
			pools[i].Put(buf) // want `nonpointer`
		}
	}
}

// TCPBufSize is the size of the relay buffer.
const TCPBufSize = 32 << 10

// CopyBuffer copies from src to dst with a pooled userspace buffer.
func CopyBuffer(dst io.Writer, src io.Reader) (written int64, err error) {
	size := TCPBufSize
	if l, ok := src.(*io.LimitedReader); ok && int64(size) > l.N {
		if l.N < 1 {
			size = 1
		} else {
			size = int(l.N)
		}
	}

	buf := GetBuffer(size)
	defer PutBuffer(buf)

	return io.CopyBuffer(dst, src, buf)
}
