// Package fixed is the fixed twin of golang/go#58452
// (https://github.com/golang/go/issues/58452, about CL 456555 and #58446):
// io.Copy was changed to take its 32 KiB copy buffer from a sync.Pool and put
// it back when the copy returns. The HTTP/2 ResponseWriter kept the slices
// passed to Write after Write returned (its frame writer sent them later), so
// the buffer was recycled through the pool while the write was still in
// progress. The pooling change was reverted.
//
// Fix (the io.Writer contract the issue cites): Write must not retain p, so
// the stream writer queues a copy of it.
package fixed

import (
	"errors"
	"io"
	"sync"
)

const copyBufSize = 32 << 10

var copyBufPool = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}

// streamWriter is the response body writer of one stream. Write queues a
// copy of the data for the connection's frame writer and returns at once.
type streamWriter struct {
	frames chan<- []byte
	closed bool
}

func (w *streamWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errors.New("http2: stream closed")
	}
	// io.Writer: Write must not retain p.
	w.frames <- append([]byte(nil), p...)
	return len(p), nil
}

// frameWriter is the connection's writer goroutine.
func frameWriter(conn io.Writer, frames <-chan []byte) error {
	for data := range frames {
		if _, err := conn.Write(data); err != nil {
			return err
		}
	}
	return nil
}

// copyToStream is io.Copy with a pooled buffer, specialised to a stream.
func copyToStream(dst *streamWriter, src io.Reader) (written int64, err error) {
	bufp := copyBufPool.Get().(*[]byte)
	defer copyBufPool.Put(bufp)

	buf := *bufp
	for {
		nr, er := src.Read(buf)
		if nr > 0 {
			nw, ew := dst.Write(buf[:nr])
			if nw < 0 || nr < nw {
				nw = 0
				if ew == nil {
					ew = errors.New("invalid write result")
				}
			}
			written += int64(nw)
			if ew != nil {
				return written, ew
			}
			if nr != nw {
				return written, io.ErrShortWrite
			}
		}
		if er != nil {
			if er != io.EOF {
				return written, er
			}
			return written, nil
		}
	}
}
