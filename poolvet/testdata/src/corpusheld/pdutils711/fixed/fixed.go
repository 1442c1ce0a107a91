// Package fixed is the fix of projectdiscovery/utils#711
// (https://github.com/projectdiscovery/utils/pull/711): HeadersString uses
// bytes.Buffer.String, which copies.
package fixed

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type ResponseChain struct {
	headers *bytes.Buffer
}

func (r *ResponseChain) HeadersString() string {
	return r.headers.String()
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
	return h
}
