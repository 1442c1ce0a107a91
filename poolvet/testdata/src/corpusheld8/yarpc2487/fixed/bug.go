// Package fixed is yarpc/yarpc-go#2487 after the fix: callers get a
// per-call handle around the pooled reader; its Close is idempotent, so only
// the first Close returns the reader to the pool, and Read after Close no
// longer touches the (possibly reused) pooled reader.
package fixed

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
	var dr *reader
	if pooled, got := c.decompressors.Get().(*reader); got {
		if err := pooled.reader.Reset(r); err != nil {
			c.decompressors.Put(pooled)
			return nil, err
		}
		dr = pooled
	} else {
		gr, err := gzip.NewReader(r)
		if err != nil {
			return nil, err
		}
		dr = &reader{reader: gr, pool: &c.decompressors}
	}
	return &readerHandle{r: dr}, nil
}

// reader is the pooled decompressor; callers never see it directly.
type reader struct {
	reader *gzip.Reader
	pool   *sync.Pool
}

// readerHandle owns the pooled reader for one request.
type readerHandle struct {
	r      *reader
	closed bool
}

var _ io.ReadCloser = (*readerHandle)(nil)

func (h *readerHandle) Read(buf []byte) (int, error) {
	if h.closed {
		return 0, io.EOF
	}
	return h.r.reader.Read(buf)
}

func (h *readerHandle) Close() error {
	if h.closed {
		return nil
	}
	h.closed = true
	h.r.pool.Put(h.r)
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
