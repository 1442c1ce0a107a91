// Source: https://github.com/segmentio/kafka-go/pull/543
// (commit e6b859904256c4876d95fece4ffb4551e3d0bc48, "fix zstd decoder leak",
// compress/zstd/zstd.go).
//
// Fixed twin: before the decoder/encoder goes back to its sync.Pool it is
// Reset onto devNull{} so it no longer retains the previous user's
// reader/writer, and the finalizer is installed on the pooled wrapper.
//
// Check: noreset (no report expected).
package fixed

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

	encoderPool sync.Pool // *encoder
}

// Code implements the compress.Codec interface.
func (c *Codec) Code() int8 { return 4 }

// Name implements the compress.Codec interface.
func (c *Codec) Name() string { return "zstd" }

// NewReader implements the compress.Codec interface.
func (c *Codec) NewReader(r io.Reader) io.ReadCloser {
	p := new(reader)
	if dec, _ := decoderPool.Get().(*decoder); dec == nil {
		z, err := newZstdReader(r)
		if err != nil {
			p.err = err
		} else {
			p.dec = &decoder{z}
			// We need a finalizer because the reader spawns goroutines
			// that will only be stopped if the Close method is called.
			runtime.SetFinalizer(p.dec, (*decoder).finalize)
		}
	} else {
		p.dec = dec
		p.err = dec.Reset(r)
	}
	return p
}

func (c *Codec) level() int {
	if c.Level != 0 {
		return c.Level
	}
	return 3
}

var decoderPool sync.Pool // *decoder

type decoder struct {
	*zstdDecoder
}

func (d *decoder) finalize() {
	d.Close()
}

type reader struct {
	dec *decoder
	err error
}

// Close implements the io.Closer interface.
func (r *reader) Close() error {
	if r.dec != nil {
		r.dec.Reset(devNull{}) // don't retain the underlying reader
		decoderPool.Put(r.dec)
		r.dec = nil
		r.err = io.ErrClosedPipe
	}
	return nil
}

// Read implements the io.Reader interface.
func (r *reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return r.dec.Read(p)
}

// WriteTo implements the io.WriterTo interface.
func (r *reader) WriteTo(w io.Writer) (int64, error) {
	if r.err != nil {
		return 0, r.err
	}
	return r.dec.WriteTo(w)
}

// NewWriter implements the compress.Codec interface.
func (c *Codec) NewWriter(w io.Writer) io.WriteCloser {
	p := new(writer)
	if enc, _ := c.encoderPool.Get().(*encoder); enc == nil {
		z, err := newZstdWriter(w, c.level())
		if err != nil {
			p.err = err
		} else {
			p.enc = &encoder{z}
			// We need a finalizer because the writer spawns goroutines
			// that will only be stopped if the Close method is called.
			runtime.SetFinalizer(p.enc, (*encoder).finalize)
		}
	} else {
		p.enc = enc
		p.enc.Reset(w)
	}
	p.c = c
	return p
}

type encoder struct {
	*zstdEncoder
}

func (e *encoder) finalize() {
	e.Close()
}

type writer struct {
	c   *Codec
	enc *encoder
	err error
}

// Close implements the io.Closer interface.
func (w *writer) Close() error {
	if w.enc != nil {
		// Close needs to be called to write the end of stream marker and flush
		// the buffers. The zstd package documents that the encoder is re-usable
		// after being closed.
		err := w.enc.Close()
		if err != nil {
			w.err = err
		}
		w.enc.Reset(devNull{}) // don't retain the underyling writer
		w.c.encoderPool.Put(w.enc)
		w.enc = nil
		return err
	}
	return nil
}

// Write implements the io.Writer interface.
func (w *writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.enc == nil {
		return 0, io.ErrClosedPipe
	}
	return w.enc.Write(p)
}

// ReadFrom implements the io.ReaderFrom interface.
func (w *writer) ReadFrom(r io.Reader) (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.enc == nil {
		return 0, io.ErrClosedPipe
	}
	return w.enc.ReadFrom(r)
}

type devNull struct{}

func (devNull) Read([]byte) (int, error)  { return 0, io.EOF }
func (devNull) Write([]byte) (int, error) { return 0, nil }
