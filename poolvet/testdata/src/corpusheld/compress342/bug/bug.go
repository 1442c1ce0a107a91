// Package bug reproduces the shape reported in klauspost/compress#342
// (https://github.com/klauspost/compress/pull/342): staticcheck flagged
// four SA6002 Puts in s2/encode.go, where the writer returns []byte block
// buffers to its sync.Pool (the maintainer declined to change them).
//
// Check: nonpointer.
package bug

import (
	"io"
	"sync"
)

const blockSize = 1 << 16

type Writer struct {
	w       io.Writer
	buffers sync.Pool
}

func NewWriter(w io.Writer) *Writer {
	wr := &Writer{w: w}
	wr.buffers.New = func() any { return make([]byte, blockSize) }
	return wr
}

func (w *Writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		inbuf := w.buffers.Get().([]byte)[:blockSize]
		n := copy(inbuf, p)
		if _, err := w.w.Write(inbuf[:n]); err != nil {
			return written, err
		}
		w.buffers.Put(inbuf) // want `non-pointer|nonpointer`
		written += n
		p = p[n:]
	}
	return written, nil
}
