// Package bug reproduces the shape of milvus-io/milvus#53548
// (https://github.com/milvus-io/milvus/pull/53548): the new pooled zstd gRPC
// compressor buffered each whole uncompressed message in the writer's
// bytes.Buffer, and pooledWriter.Close reset the writer (which keeps the
// backing array) and put it back with no capacity check. Review of the PR
// pointed out that a burst of large messages leaves every pooled writer
// holding a buffer the size of the largest message it ever compressed.
// (compress/flate stands in for the zstd encoder.)
//
// Check: unbounded (a pooled writer whose bytes.Buffer field grows with
// each message is put back with no size check)
package bug

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
)

type zstdWriter struct {
	w     io.Writer
	level int
	buf   bytes.Buffer
}

// Write only buffers: the whole message is compressed at Close.
func (z *zstdWriter) Write(p []byte) (int, error) {
	return z.buf.Write(p)
}

func (z *zstdWriter) Close() error {
	fw, err := flate.NewWriter(z.w, z.level)
	if err != nil {
		return err
	}
	if _, err := fw.Write(z.buf.Bytes()); err != nil {
		return err
	}
	return fw.Close()
}

func (z *zstdWriter) Reset(w io.Writer) {
	z.w = w
	z.buf.Reset()
}

type compressor struct {
	level int
	pool  sync.Pool
}

func newCompressor(level int) *compressor {
	c := &compressor{level: level}
	c.pool.New = func() any {
		return &zstdWriter{level: level}
	}
	return c
}

func (c *compressor) Name() string { return "zstd" }

func (c *compressor) Compress(w io.Writer) (io.WriteCloser, error) {
	z := c.pool.Get().(*zstdWriter)
	z.Reset(w)
	return &pooledWriter{zstdWriter: z, pool: &c.pool}, nil
}

type pooledWriter struct {
	*zstdWriter
	pool *sync.Pool
}

func (p *pooledWriter) Close() error {
	err := p.zstdWriter.Close()
	w := p.zstdWriter
	p.zstdWriter = nil
	w.Reset(nil)
	p.pool.Put(w) // want `unbounded`
	return err
}
