// Package bug reproduces the shape of uber-go/zap#288
// (https://github.com/uber-go/zap/issues/288): the internal buffers
// package had Put([]byte), which converted the slice to an interface{}
// for the underlying sync.Pool and so allocated on every Put.
//
// Check: nonpointer (through a Put wrapper that takes []byte).
package bug

import (
	"strconv"
	"sync"
)

const size = 1024

var pool = sync.Pool{New: func() any { return make([]byte, 0, size) }}

func Get() []byte { return pool.Get().([]byte)[:0] }

func Put(buf []byte) {
	if cap(buf) > 4*size {
		return
	}
	pool.Put(buf) // want `non-pointer|nonpointer`
}

func FormatInt(n int64) string {
	buf := Get()
	buf = strconv.AppendInt(buf, n, 10)
	s := string(buf)
	Put(buf)
	return s
}
