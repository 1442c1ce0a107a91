// Package fixed is a fixed twin of yarpc/yarpc-go#1887
// (https://github.com/yarpc/yarpc-go/pull/1887): Read never touches the
// pool; Close returns the reader exactly once and the caller closes once.
package fixed

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
	return r.reader.Read(buf)
}

func (r *reader) Close() error {
	err := r.reader.Close()
	r.pool.Put(r)
	return err
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
	defer r.Close()
	n, err := r.Read(frame)
	if err != nil && !errors.Is(err, io.EOF) {
		return n, err
	}
	m, err := r.Read(frame[n:])
	return n + m, err
}
