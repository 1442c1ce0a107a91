// Package clean is package bad with the bug fixed.
package clean

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Render returns a copy of the buffer's bytes.
func Render(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer release(buf)
	buf.WriteString(s)
	return bytes.Clone(buf.Bytes())
}

// release puts buf back unless it grew too large to keep.
func release(buf *bytes.Buffer) {
	if buf.Cap() <= 64<<10 {
		bufPool.Put(buf)
	}
}
