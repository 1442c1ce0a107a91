// Package bug reproduces the shape of yaitoo/xun#137 (https://github.com/yaitoo/xun/pull/137): once the gzip response writer took its *gzip.Writer from a package-level sync.Pool, its Close put the encoder back. A handler that called Close itself, followed by the framework's own Close after the handler returned, put the same encoder into the pool twice, so two later responses could share one encoder; the follow-up commits made Close idempotent.
//
// Check: doubleput (Put inside Close, reached from the handler and again from the framework).
package bug

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

func (r *GzipResponse) Write(p []byte) (int, error) { return r.gz.Write(p) }

// Close flushes the encoder and returns it to the pool.
func (r *GzipResponse) Close() error {
	err := r.gz.Close()
	r.gz.Reset(io.Discard)
	gzipWriterPool.Put(r.gz)
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
	if cerr := rw.Close(); err == nil { // want `twice|doubleput`
		err = cerr
	}
	return err
}
