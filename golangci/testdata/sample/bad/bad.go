// Package bad returns a pooled buffer's memory after the deferred Put.
package bad

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Render returns bytes that the next user of the buffer overwrites.
func Render(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer release(buf)
	buf.WriteString(s)
	return buf.Bytes()
}

// release puts buf back unless it grew too large to keep.
func release(buf *bytes.Buffer) {
	if buf.Cap() <= 64<<10 {
		bufPool.Put(buf)
	}
}
