// Package bug reproduces the shape of go-resty/resty#775
// (https://github.com/go-resty/resty/pull/775): the indenting JSON marshaller
// used for debug logging of request bodies encoded into a pooled
// bytes.Buffer, released it with a deferred helper and returned buf.Bytes().
// A concurrent request marshalling its body took the same buffer and wrote
// over the bytes the logger was still formatting (race seen under -race).
//
// Check: useafterput (alias returned past a deferred Put made through a
// release helper that resets and puts the buffer). The size guard in the
// helper is not in the project; it keeps this case to useafterput only.
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

const maxPooledBuffer = 1 << 16

var bufPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

func acquireBuffer() *bytes.Buffer {
	return bufPool.Get().(*bytes.Buffer)
}

func releaseBuffer(buf *bytes.Buffer) {
	if buf != nil && buf.Cap() <= maxPooledBuffer {
		buf.Reset()
		bufPool.Put(buf)
	}
}

func noescapeJSONMarshalIndent(v any) ([]byte, error) {
	buf := acquireBuffer()
	defer releaseBuffer(buf)

	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "   ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil // want `useafterput`
}

// DebugBody renders a request body for the debug log.
func DebugBody(body any) string {
	b, err := noescapeJSONMarshalIndent(body)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
