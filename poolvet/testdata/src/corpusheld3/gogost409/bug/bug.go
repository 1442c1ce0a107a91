// Package bug reproduces the shape of go-gost/gost#409
// (https://github.com/go-gost/gost/issues/409, "the current sync.Pool usage
// may not be optimal"): go-gost/core's bufpool keeps tiers of sync.Pools of
// []byte. Get and Put move slice values through interface{}, so every Put
// moves the 24-byte slice header to the heap; the benchmark shows an
// allocation per round trip that a pool of *[]byte does not have.
//
// Check: nonpointer (a []byte put into a sync.Pool that is a field of an
// element of a package-level slice of tiers, indexed in a loop).
package bug

import (
	"io"
	"sync"
)

var pools = []struct {
	size int
	pool sync.Pool
}{
	{size: 128, pool: sync.Pool{New: func() any { return make([]byte, 128) }}},
	{size: 512, pool: sync.Pool{New: func() any { return make([]byte, 512) }}},
	{size: 4096, pool: sync.Pool{New: func() any { return make([]byte, 4096) }}},
	{size: 32 * 1024, pool: sync.Pool{New: func() any { return make([]byte, 32*1024) }}},
}

// Get returns a byte buffer of at least the requested size.
func Get(size int) []byte {
	for i := range pools {
		if size <= pools[i].size {
			b := pools[i].pool.Get().([]byte)
			return b[:size]
		}
	}
	return make([]byte, size)
}

// Put returns a byte buffer to the tier matching its capacity.
func Put(b []byte) {
	for i := range pools {
		if cap(b) == pools[i].size {
			pools[i].pool.Put(b) // want `nonpointer`
			return
		}
	}
}

// CopyBuffer copies src to dst through a pooled buffer.
func CopyBuffer(dst io.Writer, src io.Reader, bufSize int) (int64, error) {
	buf := Get(bufSize)
	n, err := io.CopyBuffer(dst, src, buf)
	Put(buf)
	return n, err
}
