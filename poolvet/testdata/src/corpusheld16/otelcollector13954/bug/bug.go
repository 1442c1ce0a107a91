// Package bug reproduces the shape of open-telemetry/opentelemetry-collector
// #13954 (https://github.com/open-telemetry/opentelemetry-collector/issues/13954,
// fixed by PR #13955). confighttp wrapped pooled zstd decoders in a
// ReadCloser whose Close reset the decoder and put it back into a sync.Pool
// but kept pointing at it. The request body is closed by the decompressing
// middleware's defer and also by handlers (and net/http), so a second Close
// put the same decoder into the pool again: two requests then decoded with
// one decoder, corrupting data.
//
// Check: doubleput (a Close that puts a field its receiver keeps, on a type
// handed out as an io.ReadCloser; reported at the Put inside Close).
package bug

import (
	"errors"
	"io"
	"net/http"
	"sync"
)

// decoder stands in for *zstd.Decoder.
type decoder struct {
	src io.Reader
	buf []byte
}

func newDecoder(r io.Reader) (*decoder, error) {
	return &decoder{src: r, buf: make([]byte, 0, 4096)}, nil
}

func (d *decoder) Reset(r io.Reader) error {
	d.src = r
	d.buf = d.buf[:0]
	return nil
}

func (d *decoder) Read(p []byte) (int, error) {
	if d.src == nil {
		return 0, errors.New("decoder has no input")
	}
	return d.src.Read(p)
}

var zstdReaderPool sync.Pool

type pooledZstdReadCloser struct {
	inner *decoder
}

func (pzrc *pooledZstdReadCloser) Read(dst []byte) (int, error) {
	return pzrc.inner.Read(dst)
}

func (pzrc *pooledZstdReadCloser) Close() error {
	err := pzrc.inner.Reset(nil)
	if err != nil {
		return err
	}
	zstdReaderPool.Put(pzrc.inner) // want `doubleput`
	return nil
}

func newZstdBody(body io.ReadCloser) (io.ReadCloser, error) {
	v := zstdReaderPool.Get()
	var zr *decoder
	var err error
	if v == nil {
		zr, err = newDecoder(body)
	} else {
		zr = v.(*decoder)
		err = zr.Reset(body)
	}
	if err != nil {
		return nil, err
	}
	return &pooledZstdReadCloser{inner: zr}, nil
}

type decompressor struct {
	maxRequestBodySize int64
}

func (d *decompressor) newBodyReader(r *http.Request) (io.ReadCloser, error) {
	switch r.Header.Get("Content-Encoding") {
	case "zstd":
		return newZstdBody(r.Body)
	}
	return nil, nil
}

func (d *decompressor) ServeHTTP(w http.ResponseWriter, r *http.Request, next http.Handler) {
	newBody, err := d.newBodyReader(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if newBody != nil {
		defer newBody.Close()
		r.Header.Del("Content-Encoding")
		r.Header.Del("Content-Length")
		r.ContentLength = -1
		r.Body = http.MaxBytesReader(w, newBody, d.maxRequestBodySize)
	}
	// The next handler reads the body and closes it too.
	next.ServeHTTP(w, r)
}
