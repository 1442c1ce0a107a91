// Package fixed is the fixed twin of corpusheld8/brotli24: Reset also clears
// the recorded error, as andybalholm/brotli#24 proposes.
package fixed

import (
	"io"
	"sync"
)

type Writer struct {
	dst io.Writer
	buf []byte
	err error
}

func (w *Writer) Reset(dst io.Writer) {
	w.dst = dst
	if cap(w.buf) > 64<<10 {
		w.buf = nil
	} else {
		w.buf = w.buf[:0]
	}
	w.err = nil
}

func (w *Writer) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.dst.Write(w.buf)
	w.buf = w.buf[:0]
	return err
}

func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= 4096 {
		if err := w.flush(); err != nil {
			w.err = err
			return 0, err
		}
	}
	return len(p), nil
}

func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.flush(); err != nil {
		w.err = err
	}
	return w.err
}

var writerPool = sync.Pool{New: func() any { return new(Writer) }}

func CompressTo(dst io.Writer, data []byte) error {
	w := writerPool.Get().(*Writer)
	w.Reset(dst)
	_, err := w.Write(data)
	if err == nil {
		err = w.Close()
	}
	w.Reset(nil)
	writerPool.Put(w)
	return err
}
