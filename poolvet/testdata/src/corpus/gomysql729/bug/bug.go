// Package bug reproduces the shape of go-mysql-org/go-mysql#728, fixed by
// #729 (https://github.com/go-mysql-org/go-mysql/pull/729): ReadPacket
// deferred BytesBufferPut(buf) and later set buf = nil so that the buffer
// whose Bytes() it returned would not go back to the pool; but a deferred
// call evaluates its arguments at the defer statement, so the buffer was
// put back anyway while the caller held its bytes.
//
// Check: useafterput (the deferred Put captured the object before the
// reassignment meant to cancel it).
package bug

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
	defer BytesBufferPut(buf)
	if _, err := io.CopyN(buf, r, n); err != nil {
		return nil, err
	}
	result := buf.Bytes()
	buf = nil          // meant to keep the buffer out of the pool
	return result, nil // want `shares memory|used after|useafterput`
}
