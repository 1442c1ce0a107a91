// Package fixed is the fix of go-mysql-org/go-mysql#729
// (https://github.com/go-mysql-org/go-mysql/pull/729): the deferred
// closure reads buf when the function returns, so buf = nil keeps the
// exposed buffer out of the pool.
package fixed

import (
	"bytes"
	"io"
	"sync"
)

var bytesBufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func BytesBufferGet() *bytes.Buffer {
	b := bytesBufferPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func BytesBufferPut(b *bytes.Buffer) {
	if b == nil || b.Cap() > 1<<20 {
		return
	}
	bytesBufferPool.Put(b)
}

func ReadPacket(r io.Reader, n int64) ([]byte, error) {
	buf := BytesBufferGet()
	defer func() {
		BytesBufferPut(buf)
	}()
	if _, err := io.CopyN(buf, r, n); err != nil {
		return nil, err
	}
	result := buf.Bytes()
	buf = nil // keep the buffer out of the pool: result is exposed
	return result, nil
}
