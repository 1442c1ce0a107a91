// Package bug reproduces the shape of mostynb/zstdpool-syncpool commit
// 4c85d3e (https://github.com/mostynb/zstdpool-syncpool/commit/4c85d3ef27395d3450baaf471e52fafeceb3c6e0,
// picked up by bazelbuild/remote-apis-sdks#354): the package keeps zstd
// decoders in a sync.Pool through a DecoderWrapper. DecoderWrapper.Close is
// meant to Reset the embedded decoder with a nil reader (dropping every
// reference to the previous stream and its buffered output) and put the
// wrapper back. The condition was inverted: the wrapper went back to the
// pool only when Reset(nil) had failed, i.e. exactly the decoders still
// bound to the previous stream, while cleanly reset ones were dropped.
//
// Check: noreset (a pooled object put back still holding the state of its
// previous use), reported at the Put in DecoderWrapper.Close.
//
// The zstd decoder is modelled by a small stand-in type, since the case may
// only use the standard library.
package bug

import (
	"errors"
	"io"
	"runtime"
	"sync"
)

var (
	ErrDecoderClosed = errors.New("decoder used after Close")
	errPendingOutput = errors.New("decoder has unread output")
)

// Decoder stands in for *zstd.Decoder: it keeps the current input and the
// decoded bytes not yet read.
type Decoder struct {
	r      io.Reader
	out    []byte
	closed bool
}

func NewReader(r io.Reader) (*Decoder, error) {
	d := &Decoder{}
	if r != nil {
		if err := d.Reset(r); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Reset makes the decoder read from r; a nil reader releases references to
// the previous stream. A reset fails, leaving the decoder as it was, when it
// was closed or still holds decoded output that was never read.
func (d *Decoder) Reset(r io.Reader) error {
	if d.closed {
		return ErrDecoderClosed
	}
	if r == nil && len(d.out) > 0 {
		return errPendingOutput
	}
	d.r = r
	d.out = d.out[:0]
	return nil
}

func (d *Decoder) Read(p []byte) (int, error) {
	if d.r == nil {
		return 0, io.EOF
	}
	n, err := d.r.Read(p)
	d.out = append(d.out[:0], p[:n]...)
	return n, err
}

func (d *Decoder) Close() {
	d.closed = true
	d.r = nil
	d.out = nil
}

// DecoderWrapper is a wrapper that embeds a *Decoder, and is safe for use in
// a sync.Pool.
type DecoderWrapper struct {
	*Decoder

	// Instead of Closing a *Decoder, we can Reset it and return it to this
	// pool.
	pool *sync.Pool
}

// Close does not close the embedded *Decoder (once closed, they cannot be
// reused), but instead resets it and places this *DecoderWrapper back in the
// pool.
func (w *DecoderWrapper) Close() {
	err := w.Decoder.Reset(nil)
	if err != nil {
		w.pool.Put(w) // want `noreset`
	}
}

// IOReadCloser returns an io.ReadCloser that will return this
// *DecoderWrapper to the pool when it is closed.
func (w *DecoderWrapper) IOReadCloser() io.ReadCloser {
	return &decoderReadCloser{dw: w, Reader: w.Decoder}
}

type decoderReadCloser struct {
	dw *DecoderWrapper
	io.Reader
}

// Close does not close the underlying *Decoder, but instead returns it to
// the pool it came from.
func (w *decoderReadCloser) Close() error {
	w.dw.Close() // Returns the DecoderWrapper to the pool.
	return nil
}

// NewDecoderPool returns a sync.Pool that provides DecoderWrapper objects.
func NewDecoderPool() *sync.Pool {
	p := &sync.Pool{}

	p.New = func() interface{} {
		d, _ := NewReader(nil)
		dw := &DecoderWrapper{
			Decoder: d,
			pool:    p,
		}

		runtime.SetFinalizer(dw, func(dw *DecoderWrapper) {
			dw.Decoder.Close()
		})

		return dw
	}

	return p
}

var decoders = NewDecoderPool()

// decompress reads a whole compressed blob through a pooled decoder.
func decompress(src io.Reader) ([]byte, error) {
	dw := decoders.Get().(*DecoderWrapper)
	if err := dw.Reset(src); err != nil {
		return nil, err
	}
	rc := dw.IOReadCloser()
	defer rc.Close()
	return io.ReadAll(rc)
}
