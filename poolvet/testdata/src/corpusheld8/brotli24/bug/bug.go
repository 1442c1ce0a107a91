// Package bug reproduces the shape of andybalholm/brotli#24
// (https://github.com/andybalholm/brotli/pull/24, "Rest set writer.err=nil"):
// a compressing Writer records the first write error in w.err and returns it
// from every later call, and its Reset method rewired the destination but
// never cleared err. Users who recycle Writers through a sync.Pool (calling
// Reset on the way in and out) got a writer that failed at once with the
// previous connection's error.
//
// Check: noreset (a Reset method of the package forgets a field a later user
// reads; the dirty writer is put back; reported at the Put).
package bug

import (
	"io"
	"sync"
)

// Writer buffers data and forwards it to dst in blocks.
type Writer struct {
	dst io.Writer
	buf []byte
	err error
}

// Reset discards the buffered data (dropping an oversized buffer) and makes
// the writer write to dst.
func (w *Writer) Reset(dst io.Writer) {
	w.dst = dst
	if cap(w.buf) > 64<<10 {
		w.buf = nil
	} else {
		w.buf = w.buf[:0]
	}
}

func (w *Writer) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.dst.Write(w.buf)
	w.buf = w.buf[:0]
	return err
}

// Write buffers p, flushing full blocks to dst.
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

// Close flushes what is left.
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

// CompressTo writes data to dst through a pooled Writer.
func CompressTo(dst io.Writer, data []byte) error {
	w := writerPool.Get().(*Writer)
	w.Reset(dst)
	_, err := w.Write(data)
	if err == nil {
		err = w.Close()
	}
	w.Reset(nil)
	writerPool.Put(w) // want `noreset`
	return err
}
