// Package bufs holds a Get and a Put wrapper around a sync.Pool: poolvet
// exports them as facts, which golangci-lint must carry to package wrapped.
package bufs

import (
	"bytes"
	"sync"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Get returns an empty buffer from the pool.
func Get() *bytes.Buffer {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// Release puts b back unless it grew too large to keep.
func Release(b *bytes.Buffer) {
	if b.Cap() <= 64<<10 {
		pool.Put(b)
	}
}
