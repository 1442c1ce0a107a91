// Package bug reproduces the shape of valyala/fasthttp#1701
// (https://github.com/valyala/fasthttp/pull/1701, commit 724fd41 "fix: real &
// stackless write using different pool to avoid get stackless.writer"): while
// adding zstd support, the per-level pools in stacklessZstdWriterPoolMap were
// shared by two kinds of writer. releaseStacklessZstdWriter puts the stackless
// wrapper back into them, but acquireRealZstdWriter (which the stackless
// wrapper calls to build its inner encoder) takes from the very same pool and
// asserts the value to the raw *zstdEncoder. Once a stackless wrapper has been
// released, the next real-writer acquisition gets the wrapper and the type
// assertion panics.
//
// Fixed twin (the project's fix): raw encoders get their own per-level pools
// (realZstdWriterPoolMap) with a matching releaseRealZstdWriter, and writes
// into in-memory buffers use the raw encoder directly.
//
// Check: typemismatch (none expected here).
package bug

import (
	"bytes"
	"io"
	"sync"
)

// zstdEncoder stands in for klauspost/compress/zstd.Encoder.
type zstdEncoder struct {
	w       io.Writer
	level   int
	written int
}

func newZstdEncoder(w io.Writer, level int) *zstdEncoder {
	return &zstdEncoder{w: w, level: level}
}

func (e *zstdEncoder) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	e.written += n
	return n, err
}

func (e *zstdEncoder) Flush() error { return nil }

func (e *zstdEncoder) Close() error { return e.Flush() }

func (e *zstdEncoder) Reset(w io.Writer) {
	e.w = w
	e.written = 0
}

// stacklessWriter is the interface of fasthttp/stackless.Writer.
type stacklessWriter interface {
	Write(p []byte) (int, error)
	Flush() error
	Close() error
	Reset(w io.Writer)
}

// stacklessWrapper stands in for the writer returned by stackless.NewWriter:
// it builds its inner writer lazily through newWriter.
type stacklessWrapper struct {
	dst       io.Writer
	inner     stacklessWriter
	newWriter func(w io.Writer) stacklessWriter
}

func newStacklessWriter(dst io.Writer, newWriter func(w io.Writer) stacklessWriter) stacklessWriter {
	return &stacklessWrapper{dst: dst, newWriter: newWriter}
}

func (s *stacklessWrapper) Write(p []byte) (int, error) {
	if s.inner == nil {
		s.inner = s.newWriter(s.dst)
	}
	return s.inner.Write(p)
}

func (s *stacklessWrapper) Flush() error {
	if s.inner == nil {
		return nil
	}
	return s.inner.Flush()
}

func (s *stacklessWrapper) Close() error {
	if s.inner == nil {
		return nil
	}
	return s.inner.Close()
}

func (s *stacklessWrapper) Reset(w io.Writer) {
	s.dst = w
	if s.inner != nil {
		s.inner.Reset(w)
	}
}

var (
	zstdEncoderPool            sync.Pool
	realZstdWriterPoolMap      = newCompressWriterPoolMap()
	stacklessZstdWriterPoolMap = newCompressWriterPoolMap()
)

func newCompressWriterPoolMap() []*sync.Pool {
	p := make([]*sync.Pool, 6)
	for i := range p {
		p[i] = &sync.Pool{}
	}
	return p
}

func normalizeZstdCompressLevel(level int) int {
	if level < 1 || level > 4 {
		return 2
	}
	return level
}

func acquireZstdWriter(w io.Writer, level int) *zstdEncoder {
	v := zstdEncoderPool.Get()
	if v == nil {
		return newZstdEncoder(w, level)
	}
	zw := v.(*zstdEncoder)
	zw.Reset(w)
	return zw
}

func acquireStacklessZstdWriter(w io.Writer, compressLevel int) stacklessWriter {
	nLevel := normalizeZstdCompressLevel(compressLevel)
	p := stacklessZstdWriterPoolMap[nLevel]
	v := p.Get()
	if v == nil {
		return newStacklessWriter(w, func(w io.Writer) stacklessWriter {
			return acquireRealZstdWriter(w, compressLevel)
		})
	}
	sw := v.(stacklessWriter)
	sw.Reset(w)
	return sw
}

func releaseStacklessZstdWriter(zf stacklessWriter, level int) {
	zf.Close()
	nLevel := normalizeZstdCompressLevel(level)
	p := stacklessZstdWriterPoolMap[nLevel]
	p.Put(zf)
}

func acquireRealZstdWriter(w io.Writer, level int) *zstdEncoder {
	nLevel := normalizeZstdCompressLevel(level)
	p := realZstdWriterPoolMap[nLevel]
	v := p.Get()
	if v == nil {
		return acquireZstdWriter(w, level)
	}
	zw := v.(*zstdEncoder)
	zw.Reset(w)
	return zw
}

func releaseRealZstdWriter(zw *zstdEncoder, level int) {
	zw.Close()
	nLevel := normalizeZstdCompressLevel(level)
	p := realZstdWriterPoolMap[nLevel]
	p.Put(zw)
}

// WriteZstdLevel compresses src into w at the given level.
func WriteZstdLevel(w io.Writer, src []byte, level int) (int, error) {
	switch w.(type) {
	case *bytes.Buffer:
		zw := acquireRealZstdWriter(w, level)
		n, err := zw.Write(src)
		releaseRealZstdWriter(zw, level)
		return n, err
	default:
		zw := acquireStacklessZstdWriter(w, level)
		n, err := zw.Write(src)
		releaseStacklessZstdWriter(zw, level)
		return n, err
	}
}

// AppendZstdBytesLevel compresses src into a fresh buffer.
func AppendZstdBytesLevel(src []byte, level int) []byte {
	var b bytes.Buffer
	WriteZstdLevel(&b, src, level) //nolint:errcheck
	return b.Bytes()
}
