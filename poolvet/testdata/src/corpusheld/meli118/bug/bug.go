// Package bug reproduces the shape of komuw/meli#118
// (https://github.com/komuw/meli/issues/118): a pool of fixed-size []byte
// scratch buffers used by io.Copy; the slice was put back as bufp[:max], a
// slice value, so each Put allocates (and the bytes are never cleared).
//
// Check: nonpointer.
package bug

import (
	"bytes"
	"io"
	"sync"
)

const max = 512

var blackHolePool = sync.Pool{New: func() any { return make([]byte, max) }}

func PoolReadFrom(r io.Reader) (int64, error) {
	bufp := blackHolePool.Get().([]byte)
	var dst bytes.Buffer
	n, err := io.CopyBuffer(&dst, r, bufp)
	blackHolePool.Put(bufp[:max]) // want `non-pointer|nonpointer`
	return n, err
}
