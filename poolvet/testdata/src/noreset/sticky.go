package noreset

import (
	"io"
	"sync"
)

// A writer with a sticky error that its Reset forgets: a pooled writer
// that failed once fails for every later user (andybalholm/brotli#24).
type stickyWriter struct {
	dst io.Writer
	err error
}

func (w *stickyWriter) Reset(dst io.Writer) { w.dst = dst }

func (w *stickyWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.dst.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

var stickyPool = sync.Pool{New: func() any { return new(stickyWriter) }}

func writeSticky(dst io.Writer, p []byte) error {
	w := stickyPool.Get().(*stickyWriter)
	w.Reset(dst)
	_, err := w.Write(p)
	w.Reset(nil)
	stickyPool.Put(w) // want `w goes back to the pool with field err, a sticky error that Write returns while it is set, never cleared`
	return err
}

// The fix: Reset clears the error.
type clearingWriter struct {
	dst io.Writer
	err error
}

func (w *clearingWriter) Reset(dst io.Writer) { w.dst, w.err = dst, nil }

func (w *clearingWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.dst.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

var clearingPool = sync.Pool{New: func() any { return new(clearingWriter) }}

func writeClearing(dst io.Writer, p []byte) error {
	w := clearingPool.Get().(*clearingWriter)
	w.Reset(dst)
	_, err := w.Write(p)
	w.Reset(nil)
	clearingPool.Put(w)
	return err
}
