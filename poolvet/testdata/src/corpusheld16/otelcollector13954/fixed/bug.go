// Package fixed is the fix of open-telemetry/opentelemetry-collector#13954
// (PR #13955): Close puts the decoder back once and drops its reference, so
// later Close calls do nothing and Read after Close fails.
package fixed

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

var errDecoderClosed = errors.New("decoder used after Close")

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
	if pzrc.inner == nil {
		return 0, errDecoderClosed
	}
	return pzrc.inner.Read(dst)
}

func (pzrc *pooledZstdReadCloser) Close() error {
	if pzrc.inner != nil {
		err := pzrc.inner.Reset(nil)
		if err != nil {
			return err
		}
		zstdReaderPool.Put(pzrc.inner)
		pzrc.inner = nil
	}
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
