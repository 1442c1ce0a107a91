package doubleput

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

type valueBlock struct{ buf []byte }

var valueBlockPool = sync.Pool{New: func() any { return new(valueBlock) }}

func releaseValueBlock(v *valueBlock) {
	if cap(v.buf) > 1<<16 {
		return
	}
	v.buf = v.buf[:0]
	valueBlockPool.Put(v)
}

// A Close whose deferred closure puts a field it never clears, even on the
// early return that a second Close takes (cockroachdb/pebble 920d4db).
type blockWriter struct {
	out io.Writer
	vb  *valueBlock
	err error
}

func (w *blockWriter) Close() (err error) { // want Close:`pool:put\(0\).field`
	defer func() {
		if w.vb != nil {
			releaseValueBlock(w.vb)
		}
	}()
	if w.err != nil {
		return w.err
	}
	_, err = w.out.Write(w.vb.buf)
	w.err = errors.New("closed")
	return err
}

func rewrite(out io.Writer) error {
	w := &blockWriter{out: out, vb: valueBlockPool.Get().(*valueBlock)}
	defer w.Close()
	if err := w.Close(); err != nil { // want `put into the pool here and again by the deferred Put`
		return err
	}
	return nil
}

// The fix: the closure clears the field it puts; a second Close finds nil.
type clearingWriter struct {
	out io.Writer
	vb  *valueBlock
}

func (w *clearingWriter) Close() error {
	defer func() {
		if w.vb != nil {
			releaseValueBlock(w.vb)
			w.vb = nil
		}
	}()
	_, err := w.out.Write(w.vb.buf)
	return err
}

func rewriteClearing(out io.Writer) error {
	w := &clearingWriter{out: out, vb: valueBlockPool.Get().(*valueBlock)}
	defer w.Close()
	return w.Close()
}

// A pooled reader handed out as an io.ReadCloser whose Close puts the
// reader itself and changes nothing: a consumer that closes at io.EOF and
// its owner that closes again put it twice (yarpc/yarpc-go#2508).
type pooledReader struct {
	src  io.Reader
	pool *sync.Pool
}

func (r *pooledReader) Read(p []byte) (int, error) { return r.src.Read(p) }

func (r *pooledReader) Close() error { // want Close:`pool:put\(0\)`
	r.pool.Put(r) // want `Close puts its receiver r back into the pool with no check of its state first`
	return nil
}

var readerPool sync.Pool

func openReader(src io.Reader) io.ReadCloser {
	if r, ok := readerPool.Get().(*pooledReader); ok {
		r.src = src
		return r
	}
	return &pooledReader{src: src, pool: &readerPool}
}

// The fix: Close runs once.
type onceReader struct {
	src    io.Reader
	pool   *sync.Pool
	closed bool
}

func (r *onceReader) Read(p []byte) (int, error) { return r.src.Read(p) }

func (r *onceReader) Close() error { // want Close:`pool:put\(0\)\?`
	if r.closed {
		return nil
	}
	r.closed = true
	r.pool.Put(r)
	return nil
}

func openOnceReader(src io.Reader) io.ReadCloser {
	return &onceReader{src: src, pool: &readerPool}
}

// A reader that is boxed only to be put, never handed out as an
// interface: its callers are in this package and close once.
type localReader struct {
	src io.Reader
}

func (r *localReader) Read(p []byte) (int, error) { return r.src.Read(p) }

func (r *localReader) Close() error { // want Close:`pool:put\(0\)`
	readerPool.Put(r)
	return nil
}

func readLocal(src io.Reader, p []byte) (int, error) {
	r := &localReader{src: src}
	defer r.Close()
	return r.Read(p)
}

// A writer closed once by its owner (gRPC's compressors): not reported.
type pooledWriter struct {
	dst  io.Writer
	pool *sync.Pool
}

func (w *pooledWriter) Write(p []byte) (int, error) { return w.dst.Write(p) }

func (w *pooledWriter) Close() error { // want Close:`pool:put\(0\)`
	w.pool.Put(w)
	return nil
}

var writerPool sync.Pool

func openWriter(dst io.Writer) io.WriteCloser {
	return &pooledWriter{dst: dst, pool: &writerPool}
}

// A reader handed out as a plain io.Reader: only code that knows the type
// closes it (gRPC's gzip decompressor), so its Close is not reported.
type plainReader struct {
	src  io.Reader
	pool *sync.Pool
}

func (r *plainReader) Read(p []byte) (int, error) { return r.src.Read(p) }

func (r *plainReader) Close() error { // want Close:`pool:put\(0\)`
	defer r.pool.Put(r)
	return nil
}

func openPlain(src io.Reader) io.Reader {
	return &plainReader{src: src, pool: &readerPool}
}

// Resetting the reader before the Put does not make Close run once
// (lesismal/nbio fd8d727); a loop over its buffers is no check either.
type resetReader struct {
	bufs [][]byte
}

var resetReaderPool = sync.Pool{New: func() any { return new(resetReader) }}

func (r *resetReader) Read(p []byte) (int, error) { return 0, io.EOF }

func (r *resetReader) Close() error { // want Close:`pool:put\(0\)`
	for i := range r.bufs {
		r.bufs[i] = nil
	}
	*r = resetReader{}
	resetReaderPool.Put(r) // want `Close puts its receiver r back into the pool with no check of its state first`
	return nil
}

func openReset() io.ReadCloser {
	return resetReaderPool.Get().(*resetReader)
}

// A CompareAndSwap of a state field is a check.
type casReader struct {
	closed atomic.Bool
}

var casReaderPool = sync.Pool{New: func() any { return new(casReader) }}

func (r *casReader) Read(p []byte) (int, error) { return 0, io.EOF }

func (r *casReader) Close() error { // want Close:`pool:put\(0\)\?`
	if !r.closed.CompareAndSwap(false, true) {
		return nil
	}
	casReaderPool.Put(r)
	return nil
}

func openCAS() io.ReadCloser {
	return casReaderPool.Get().(*casReader)
}
