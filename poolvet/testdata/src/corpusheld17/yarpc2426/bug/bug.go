// Package bug reproduces the shape of yarpc/yarpc-go#2426
// (https://github.com/yarpc/yarpc-go/pull/2426, "fix pooling bug in gzip
// decompressor"). The gzip compressor keeps its pooled readers in a
// sync.Pool field; when resetting a recycled reader onto a new stream failed,
// the error path put the caller's source io.Reader into that pool instead of
// the pooled *reader. A later Get then hands back something that is not a
// *reader (the comma-ok assertion silently fails and the pool is polluted).
//
// Check: typemismatch (a value of another type, the source io.Reader, is put
// into a pool that only ever holds *reader; reported at that Put).
package bug

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
			c.decompressors.Put(src) // want `typemismatch`
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
