// Package bug reproduces the shape discussed in review of
// yarpc/yarpc-go#1887 (https://github.com/yarpc/yarpc-go/pull/1887): the
// pooled gzip reader wrapper put itself back into its pool from Read when
// the stream hit io.EOF; a caller that reads again after EOF (as callers
// may) puts the same reader into the pool a second time. Review proposed
// returning it to the pool only from Close.
//
// Check: doubleput (a Put inside a method that the caller reaches twice).
package bug

import (
	"compress/gzip"
	"errors"
	"io"
	"sync"
)

type reader struct {
	reader *gzip.Reader
	pool   *sync.Pool
}

func (r *reader) Read(buf []byte) (int, error) {
	n, err := r.reader.Read(buf)
	if err == io.EOF {
		r.pool.Put(r)
	}
	return n, err
}

var readerPool sync.Pool

func decompress(src io.Reader) (*reader, error) {
	if r, ok := readerPool.Get().(*reader); ok {
		return r, r.reader.Reset(src)
	}
	zr, err := gzip.NewReader(src)
	if err != nil {
		return nil, err
	}
	return &reader{reader: zr, pool: &readerPool}, nil
}

func ReadFrame(src io.Reader, frame []byte) (int, error) {
	r, err := decompress(src)
	if err != nil {
		return 0, err
	}
	n, err := r.Read(frame)
	if err != nil && !errors.Is(err, io.EOF) {
		return n, err
	}
	m, err := r.Read(frame[n:]) // want `twice|again|more than once|doubleput|used after|useafterput`
	return n + m, err
}
