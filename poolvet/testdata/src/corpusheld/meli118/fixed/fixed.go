// Package fixed is a fixed twin of komuw/meli#118
// (https://github.com/komuw/meli/issues/118): the pool holds *[]byte.
package fixed

import (
	"bytes"
	"io"
	"sync"
)

const max = 512

var blackHolePool = sync.Pool{New: func() any { b := make([]byte, max); return &b }}

func PoolReadFrom(r io.Reader) (int64, error) {
	bufp := blackHolePool.Get().(*[]byte)
	var dst bytes.Buffer
	n, err := io.CopyBuffer(&dst, r, *bufp)
	blackHolePool.Put(bufp)
	return n, err
}
