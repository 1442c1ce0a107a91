// Package fixed is the fixed twin of milvus53548: a writer whose message
// buffer grew past a retention cap is dropped instead of pooled (the fix
// the review of milvus-io/milvus#53548 called for).
package fixed

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
)

// maxRetainedBuf bounds the buffer a pooled writer may keep.
const maxRetainedBuf = 1 << 20

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
	if w.buf.Cap() > maxRetainedBuf {
		return err
	}
	p.pool.Put(w)
	return err
}
