// Package bug reproduces the shape of go-resty/resty#421 (https://github.com/go-resty/resty/pull/421): the helper that marshals a request body as JSON without HTML escaping took a *bytes.Buffer from a pool, deferred putting it back, encoded into it and returned buf.Bytes(). The deferred release runs as the function returns, so the caller receives a slice whose backing array already belongs to the pool; a concurrent request can take the same buffer and overwrite the body before it is sent.
//
// Check: useafterput (alias of the pooled buffer returned past a deferred Put).
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func acquireBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func releaseBuffer(b *bytes.Buffer) {
	if b == nil || b.Cap() > 64<<10 {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

// MarshalNoEscape encodes v as JSON without escaping <, > and &.
func MarshalNoEscape(v any) ([]byte, error) {
	buf := acquireBuffer()
	defer releaseBuffer(buf)

	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil // want `used after|useafterput`
}
