// Package fixed is the fixed twin of yarpc/yarpc-go#2426
// (https://github.com/yarpc/yarpc-go/pull/2426): on a failed Reset the pooled
// *reader itself goes back to the pool, not the caller's source reader.
package fixed

import (
	"compress/gzip"
	"io"
	"sync"
)

type Compressor struct {
	level         int
	decompressors sync.Pool
}

type reader struct {
	zr   *gzip.Reader
	pool *sync.Pool
}

func (rd *reader) Read(p []byte) (int, error) { return rd.zr.Read(p) }

// Close hands the reader back to the compressor's pool.
func (rd *reader) Close() error {
	rd.pool.Put(rd)
	return nil
}

func (c *Compressor) Decompress(src io.Reader) (io.ReadCloser, error) {
	if rd, ok := c.decompressors.Get().(*reader); ok {
		if err := rd.zr.Reset(src); err != nil {
			c.decompressors.Put(rd)
			return nil, err
		}
		return rd, nil
	}
	zr, err := gzip.NewReader(src)
	if err != nil {
		return nil, err
	}
	return &reader{zr: zr, pool: &c.decompressors}, nil
}
