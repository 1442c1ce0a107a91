// Package fixed is a fixed twin of klauspost/compress#342
// (https://github.com/klauspost/compress/pull/342): the writer pools
// pointers to fixed-size block arrays.
package fixed

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
	wr.buffers.New = func() any { return new([blockSize]byte) }
	return wr
}

func (w *Writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		inbuf := w.buffers.Get().(*[blockSize]byte)
		n := copy(inbuf[:], p)
		if _, err := w.w.Write(inbuf[:n]); err != nil {
			return written, err
		}
		w.buffers.Put(inbuf)
		written += n
		p = p[n:]
	}
	return written, nil
}
