// Package fixed is a fixed twin of erpc/erpc#420
// (https://github.com/erpc/erpc/pull/420): Close gives the reader back once
// and is a no-op afterwards, and the caller closes in one place.
package fixed

import (
	"compress/gzip"
	"io"
	"sync"
)

var gzipReaderPool sync.Pool

type pooledGzipReadCloser struct {
	zr *gzip.Reader
}

func (p *pooledGzipReadCloser) Read(b []byte) (int, error) { return p.zr.Read(b) }

func (p *pooledGzipReadCloser) Close() error {
	if p.zr == nil {
		return nil
	}
	err := p.zr.Close()
	gzipReaderPool.Put(p.zr)
	p.zr = nil
	return err
}

func newReader(r io.Reader) (*pooledGzipReadCloser, error) {
	zr, ok := gzipReaderPool.Get().(*gzip.Reader)
	if !ok {
		var err error
		if zr, err = gzip.NewReader(r); err != nil {
			return nil, err
		}
		return &pooledGzipReadCloser{zr: zr}, nil
	}
	if err := zr.Reset(r); err != nil {
		return nil, err
	}
	return &pooledGzipReadCloser{zr: zr}, nil
}

func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	rc, err := newReader(r)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, limit))
}
