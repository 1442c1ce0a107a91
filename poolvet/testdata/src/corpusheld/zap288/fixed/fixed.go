// Package fixed is the fix of uber-go/zap#288
// (https://github.com/uber-go/zap/issues/288): a wrapper type is pooled by
// pointer, so Put does not allocate.
package fixed

import (
	"strconv"
	"sync"
)

const size = 1024

type Buffer struct{ bs []byte }

var pool = sync.Pool{New: func() any { return &Buffer{bs: make([]byte, 0, size)} }}

func Get() *Buffer {
	b := pool.Get().(*Buffer)
	b.bs = b.bs[:0]
	return b
}

func Put(b *Buffer) {
	if cap(b.bs) > 4*size {
		return
	}
	pool.Put(b)
}

func FormatInt(n int64) string {
	b := Get()
	b.bs = strconv.AppendInt(b.bs, n, 10)
	s := string(b.bs)
	Put(b)
	return s
}
