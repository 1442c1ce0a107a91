// Package bug reproduces the shape of projectdiscovery/utils#711
// (https://github.com/projectdiscovery/utils/pull/711): HeadersString made
// a zero-copy string (an unsafe conversion) over the bytes of a pooled
// bytes.Buffer; after Close returned the buffer to the pool and it was
// reused, strings held by callers changed.
//
// Check: useafterput (an interior pointer taken with unsafe, used after the
// buffer went back to the pool).
package bug

import (
	"bytes"
	"sync"
	"unsafe"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type ResponseChain struct {
	headers *bytes.Buffer
}

func bytesToString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func (r *ResponseChain) HeadersString() string {
	return bytesToString(r.headers.Bytes())
}

func (r *ResponseChain) Close() {
	if r.headers.Cap() > 1<<20 {
		return
	}
	r.headers.Reset()
	bufPool.Put(r.headers)
}

func Headers(raw string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(raw)
	rc := &ResponseChain{headers: b}
	h := rc.HeadersString()
	rc.Close()
	return h // want `used after|shares memory|useafterput`
}
