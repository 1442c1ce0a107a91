// Package fixed is open-telemetry/opentelemetry-go#6012 with the PR's fix:
// buffers that grew past a maximum capacity are not returned to the pool.
package fixed

import (
	"bytes"
	"sync"
)

type KeyValue struct {
	Key   string
	Value string
}

type defaultAttrEncoder struct {
	pool sync.Pool // *bytes.Buffer
}

func newEncoder() *defaultAttrEncoder {
	return &defaultAttrEncoder{
		pool: sync.Pool{New: func() any { return &bytes.Buffer{} }},
	}
}

const (
	escapeChar   = '\\'
	maxBufferCap = 8 << 10
)

// Encode renders kvs as k=v pairs separated by commas.
func (d *defaultAttrEncoder) Encode(kvs []KeyValue) string {
	buf := d.pool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxBufferCap {
			d.pool.Put(buf)
		}
	}()
	buf.Reset()

	for i, kv := range kvs {
		if i > 0 {
			buf.WriteRune(',')
		}
		copyAndEscape(buf, kv.Key)
		buf.WriteRune('=')
		copyAndEscape(buf, kv.Value)
	}
	return buf.String()
}

// copyAndEscape escapes '=', ',' and the escape character itself.
func copyAndEscape(buf *bytes.Buffer, val string) {
	for _, ch := range val {
		switch ch {
		case '=', ',', escapeChar:
			buf.WriteRune(escapeChar)
		}
		buf.WriteRune(ch)
	}
}
