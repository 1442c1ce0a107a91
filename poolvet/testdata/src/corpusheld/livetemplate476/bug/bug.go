// Package bug reproduces the shape of livetemplate/livetemplate#226, fixed
// by #476 (https://github.com/livetemplate/livetemplate/pull/476): a
// process-wide pool of render buffers took every buffer back, so one huge
// template render left an oversized bytes.Buffer in the pool; there were two
// Put sites.
//
// Check: unbounded (two Puts of a growable buffer without a size bound).
package bug

import (
	"bytes"
	"io"
	"sync"
)

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func executeWithBuffer(w io.Writer, render func(io.Writer) error) error {
	buf := bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	if err := render(buf); err != nil {
		bufferPool.Put(buf) // want `capacity check|unbounded`
		return err
	}
	_, err := w.Write(buf.Bytes())
	bufferPool.Put(buf) // want `capacity check|unbounded`
	return err
}
