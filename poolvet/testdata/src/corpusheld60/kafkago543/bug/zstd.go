// Source: https://github.com/segmentio/kafka-go/pull/543
// (commit e6b859904256c4876d95fece4ffb4551e3d0bc48, "fix zstd decoder leak",
// compress/zstd/zstd.go).
//
// Bug: the zstd codec pools *zstd.Decoder and *zstd.Encoder values in
// sync.Pools. reader.Close put the decoder back while it still referenced the
// io.Reader it was last Reset on (the fetched message set), and writer.Close
// put the encoder back while it still referenced the io.Writer it was
// compressing into. An idle pooled codec object therefore kept the previous
// user's buffers reachable (and, together with the finalizer placed on the
// short-lived wrapper instead of on the pooled object, leaked memory).
//
// Fix: before Put, reset the pooled decoder/encoder onto an empty devNull
// value ("don't retain the underlying reader/writer"), and wrap the pooled
// object so the finalizer lives on what is pooled.
//
// Check: noreset (both Puts in reader.Close and writer.Close return an object
// still holding the previous user's reader/writer).
package bug

import (
	"io"
	"runtime"
	"sync"
)

// zstdDecoder stands in for github.com/klauspost/compress/zstd.Decoder: it
// keeps the stream it decodes from until it is Reset onto another one.
type zstdDecoder struct {
	r   io.Reader
	buf []byte
}

func newZstdReader(r io.Reader) (*zstdDecoder, error) {
	return &zstdDecoder{r: r, buf: make([]byte, 0, 1<<17)}, nil
}

func (d *zstdDecoder) Reset(r io.Reader) error {
	d.r = r
	d.buf = d.buf[:0]
	return nil
}

func (d *zstdDecoder) Read(p []byte) (int, error) { return d.r.Read(p) }

func (d *zstdDecoder) WriteTo(w io.Writer) (int64, error) { return io.Copy(w, d.r) }

func (d *zstdDecoder) Close() {}

// zstdEncoder stands in for github.com/klauspost/compress/zstd.Encoder.
type zstdEncoder struct {
	w     io.Writer
	level int
}

func newZstdWriter(w io.Writer, level int) (*zstdEncoder, error) {
	return &zstdEncoder{w: w, level: level}, nil
}

func (e *zstdEncoder) Reset(w io.Writer) { e.w = w }

func (e *zstdEncoder) Write(p []byte) (int, error) { return e.w.Write(p) }

func (e *zstdEncoder) ReadFrom(r io.Reader) (int64, error) { return io.Copy(e.w, r) }

func (e *zstdEncoder) Close() error { return nil }

// Codec is the implementation of a compress.Codec which supports creating
// readers and writers for kafka messages compressed with zstd.
type Codec struct {
	// The compression level configured on writers created by the codec.
	//
	// Default to 3.
	Level int

	encPool sync.Pool
}

// Code implements the compress.Codec interface.
func (c *Codec) Code() int8 { return 4 }

// Name implements the compress.Codec interface.
func (c *Codec) Name() string { return "zstd" }

// NewReader implements the compress.Codec interface.
func (c *Codec) NewReader(r io.Reader) io.ReadCloser {
	p := new(reader)
	if cached := decPool.Get(); cached == nil {
		p.dec, p.err = newZstdReader(r)
		if p.dec != nil {
			// We need a finalizer because the reader spawns goroutines
			// that will only be stopped if the Close method is called.
			runtime.SetFinalizer(p, func(r *reader) { r.Close() })
		}
	} else {
		p.dec = cached.(*zstdDecoder)
		p.err = p.dec.Reset(r)
	}
	return p
}

func (c *Codec) level() int {
	if c.Level != 0 {
		return c.Level
	}
	return 3
}

var decPool sync.Pool

type reader struct {
	dec *zstdDecoder
	err error
}

// Close implements the io.Closer interface.
func (r *reader) Close() error {
	if r.dec != nil {
		decPool.Put(r.dec) // want `noreset`
		r.dec = nil
		r.err = io.ErrClosedPipe
	}
	return nil
}

// Read implements the io.Reader interface.
func (r *reader) Read(p []byte) (n int, err error) {
	if r.err != nil {
		return 0, r.err
	}
	return r.dec.Read(p)
}

// WriteTo implements the io.WriterTo interface.
func (r *reader) WriteTo(w io.Writer) (n int64, err error) {
	if r.err != nil {
		return 0, r.err
	}
	return r.dec.WriteTo(w)
}

// NewWriter implements the compress.Codec interface.
func (c *Codec) NewWriter(w io.Writer) io.WriteCloser {
	p := new(writer)
	if cached := c.encPool.Get(); cached == nil {
		p.enc, p.err = newZstdWriter(w, c.level())
		if p.enc != nil {
			// We need a finalizer because the writer spawns goroutines
			// that will only be stopped if the Close method is called.
			runtime.SetFinalizer(p, func(w *writer) { w.Close() })
		}
	} else {
		p.enc = cached.(*zstdEncoder)
		p.enc.Reset(w)
	}
	p.c = c
	return p
}

type writer struct {
	c   *Codec
	enc *zstdEncoder
	err error
}

// Close implements the io.Closer interface.
func (w *writer) Close() error {
	if w.enc == nil {
		return nil // already closed
	}
	err := w.enc.Close()
	w.c.encPool.Put(w.enc) // want `noreset`
	w.c = nil
	w.enc = nil
	w.err = io.ErrClosedPipe
	return err
}

// Write implements the io.Writer interface.
func (w *writer) Write(p []byte) (n int, err error) {
	if w.err != nil {
		return 0, w.err
	}
	return w.enc.Write(p)
}

// ReadFrom implements the io.ReaderFrom interface.
func (w *writer) ReadFrom(r io.Reader) (n int64, err error) {
	if w.err != nil {
		return 0, w.err
	}
	return w.enc.ReadFrom(r)
}
