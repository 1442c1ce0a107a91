// Package bug reproduces the shape of erpc/erpc#420
// (https://github.com/erpc/erpc/pull/420), review of util/gzip_pool.go:
// pooledGzipReadCloser.Close returned its gzip.Reader to the pool on every
// call, so a body closed twice (explicitly on an error path and again by a
// deferred Close) put the same reader into the pool twice and two
// consumers could decompress into it concurrently.
//
// Check: doubleput (a Put in a Close method, reached twice on one path).
package bug

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
	err := p.zr.Close()
	gzipReaderPool.Put(p.zr)
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
	b, err := io.ReadAll(io.LimitReader(rc, limit))
	if err != nil {
		rc.Close() // want `twice|again|more than once|doubleput`
		return nil, err
	}
	return b, nil
}
