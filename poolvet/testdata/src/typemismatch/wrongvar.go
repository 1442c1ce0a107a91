package typemismatch

import (
	"compress/gzip"
	"io"
	"sync"
)

// A Put of the caller's reader instead of the pooled one on an error path
// (yarpc/yarpc-go#2426).
type gzReader struct{ zr *gzip.Reader }

type decompressor struct{ readers sync.Pool }

func (d *decompressor) open(src io.Reader) (*gzReader, error) {
	if rd, ok := d.readers.Get().(*gzReader); ok {
		if err := rd.zr.Reset(src); err != nil {
			d.readers.Put(src) // want `src \(io.Reader\) is put into the pool that line 16 takes a \*gzReader from, but it is not that object`
			return nil, err
		}
		return rd, nil
	}
	zr, err := gzip.NewReader(src)
	if err != nil {
		return nil, err
	}
	return &gzReader{zr: zr}, nil
}

// Silent: the pooled reader goes back; and an interface value that is the
// object got (asserted to an interface).
func (d *decompressor) openFixed(src io.Reader) (*gzReader, error) {
	if rd, ok := d.readers.Get().(*gzReader); ok {
		if err := rd.zr.Reset(src); err != nil {
			d.readers.Put(rd)
			return nil, err
		}
		return rd, nil
	}
	return nil, io.EOF
}

type closerPool struct{ p sync.Pool }

func (c *closerPool) cycle() {
	if r, ok := c.p.Get().(io.Closer); ok {
		_ = r.Close()
		c.p.Put(r)
	}
}
