// Package bug reproduces the shape of open-telemetry/opentelemetry-go#6012
// (https://github.com/open-telemetry/opentelemetry-go/pull/6012): the
// default attribute encoder keeps its *bytes.Buffers in a sync.Pool field
// and puts every buffer back however large an attribute set made it grow,
// so one big set leaves a big buffer in the pool (golang/go#23199,
// golang/go#27735).
//
// Check: unbounded (deferred Put of a buffer grown through a helper, pool in
// a struct field, no size guard).
package bug

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

const escapeChar = '\\'

// Encode renders kvs as k=v pairs separated by commas.
func (d *defaultAttrEncoder) Encode(kvs []KeyValue) string {
	buf := d.pool.Get().(*bytes.Buffer)
	defer d.pool.Put(buf) // want `unbounded`
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
