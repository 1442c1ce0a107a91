// Package bug reproduces the shape of yarpc/yarpc-go#2487
// (https://github.com/yarpc/yarpc-go/pull/2487, commit 443824ac2149):
// the gzip compressor handed its pooled *reader straight to callers as an
// io.ReadCloser, and reader.Close put the reader back into the sync.Pool
// without recording that it had done so. The gRPC adapter closes the
// decompressor when Read returns io.EOF, and gRPC reads (and closes) once
// more to drain the stream, so Close ran twice and the same reader went
// into the pool twice, ending up shared by two concurrent requests.
//
// Check: doubleput (a Close that puts its own receiver and changes nothing
// in it, on a type handed out as an io.ReadCloser). The report belongs on
// the Put inside Close.
package bug

import (
	"compress/gzip"
	"io"
	"sync"
)

type Compressor struct {
	decompressors sync.Pool
}

// Decompress obtains a gzip decompressor.
func (c *Compressor) Decompress(r io.Reader) (io.ReadCloser, error) {
	if dr, got := c.decompressors.Get().(*reader); got {
		if err := dr.reader.Reset(r); err != nil {
			c.decompressors.Put(dr)
			return nil, err
		}
		return dr, nil
	}

	gr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	return &reader{reader: gr, pool: &c.decompressors}, nil
}

type reader struct {
	reader *gzip.Reader
	pool   *sync.Pool
}

var _ io.ReadCloser = (*reader)(nil)

func (r *reader) Read(buf []byte) (int, error) {
	return r.reader.Read(buf)
}

func (r *reader) Close() error {
	r.pool.Put(r) // want `doubleput`
	return nil
}

// grpcReader is the gRPC adapter: it closes the decompressor as soon as the
// stream is exhausted, and gRPC may still call Read again to drain it.
type grpcReader struct {
	rc io.ReadCloser
}

func (g *grpcReader) Read(buf []byte) (int, error) {
	n, err := g.rc.Read(buf)
	if err == io.EOF {
		g.rc.Close()
	}
	return n, err
}

func NewGRPCReader(c *Compressor, r io.Reader) (io.Reader, error) {
	rc, err := c.Decompress(r)
	if err != nil {
		return nil, err
	}
	return &grpcReader{rc: rc}, nil
}
