// Package fixed is the repaired twin of yaitoo/xun#137 (https://github.com/yaitoo/xun/pull/137): Close now releases the encoder only once (it drops its reference after the Put), so a second Close from the framework is a no-op.
package fixed

import (
	"compress/gzip"
	"io"
	"sync"
)

var gzipWriterPool = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// GzipResponse compresses everything written to it.
type GzipResponse struct {
	w  io.Writer
	gz *gzip.Writer
}

// NewGzipResponse wraps w with a pooled encoder.
func NewGzipResponse(w io.Writer) *GzipResponse {
	gz := gzipWriterPool.Get().(*gzip.Writer)
	gz.Reset(w)
	return &GzipResponse{w: w, gz: gz}
}

func (r *GzipResponse) Write(p []byte) (int, error) {
	if r.gz == nil {
		return 0, io.ErrClosedPipe
	}
	return r.gz.Write(p)
}

// Close flushes the encoder and returns it to the pool, once.
func (r *GzipResponse) Close() error {
	gz := r.gz
	if gz == nil {
		return nil
	}
	r.gz = nil
	err := gz.Close()
	gz.Reset(io.Discard)
	gzipWriterPool.Put(gz)
	return err
}

// handler is user code: it closes the response once it is done.
func handler(rw *GzipResponse, body []byte) error {
	if _, err := rw.Write(body); err != nil {
		return err
	}
	return rw.Close()
}

// Serve is the framework side: it always closes the response after the handler.
func Serve(w io.Writer, body []byte) error {
	rw := NewGzipResponse(w)
	err := handler(rw, body)
	if cerr := rw.Close(); err == nil {
		err = cerr
	}
	return err
}
