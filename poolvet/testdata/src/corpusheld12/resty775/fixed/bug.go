// Package fixed is go-resty/resty#775 after the fix: the indenting
// marshaller copies the encoded bytes out of the pooled buffer before the
// deferred release gives the buffer back. The release helper only pools
// buffers of ordinary size.
package fixed

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
	out := make([]byte, buf.Len())
	copy(out, buf.Bytes())
	return out, nil
}

// DebugBody renders a request body for the debug log.
func DebugBody(body any) string {
	b, err := noescapeJSONMarshalIndent(body)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
