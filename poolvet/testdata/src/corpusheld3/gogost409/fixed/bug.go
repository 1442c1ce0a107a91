// Package fixed is go-gost/gost#409 with the change the issue recommends:
// the tiers pool *[]byte and Get/Put pass the pointer along.
package fixed

import (
	"io"
	"sync"
)

func newBuf(size int) func() any {
	return func() any {
		b := make([]byte, size)
		return &b
	}
}

var pools = []struct {
	size int
	pool sync.Pool
}{
	{size: 128, pool: sync.Pool{New: newBuf(128)}},
	{size: 512, pool: sync.Pool{New: newBuf(512)}},
	{size: 4096, pool: sync.Pool{New: newBuf(4096)}},
	{size: 32 * 1024, pool: sync.Pool{New: newBuf(32 * 1024)}},
}

// Get returns a pointer to a byte buffer of at least the requested size.
func Get(size int) *[]byte {
	for i := range pools {
		if size <= pools[i].size {
			p := pools[i].pool.Get().(*[]byte)
			*p = (*p)[:size]
			return p
		}
	}
	b := make([]byte, size)
	return &b
}

// Put returns a byte buffer to the tier matching its capacity.
func Put(p *[]byte) {
	for i := range pools {
		if cap(*p) == pools[i].size {
			pools[i].pool.Put(p)
			return
		}
	}
}

// CopyBuffer copies src to dst through a pooled buffer.
func CopyBuffer(dst io.Writer, src io.Reader, bufSize int) (int64, error) {
	p := Get(bufSize)
	n, err := io.CopyBuffer(dst, src, *p)
	Put(p)
	return n, err
}
