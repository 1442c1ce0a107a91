// Package fixed is the fix of livetemplate/livetemplate#476
// (https://github.com/livetemplate/livetemplate/pull/476): both Puts go
// through putBuffer, which drops buffers grown past 256 KB.
package fixed

import (
	"bytes"
	"io"
	"sync"
)

const maxPooledBufferBytes = 256 << 10

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func bufferReusable(buf *bytes.Buffer) bool {
	return buf.Cap() <= maxPooledBufferBytes
}

func putBuffer(buf *bytes.Buffer) {
	if !bufferReusable(buf) {
		return
	}
	bufferPool.Put(buf)
}

func executeWithBuffer(w io.Writer, render func(io.Writer) error) error {
	buf := bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	if err := render(buf); err != nil {
		putBuffer(buf)
		return err
	}
	_, err := w.Write(buf.Bytes())
	putBuffer(buf)
	return err
}
