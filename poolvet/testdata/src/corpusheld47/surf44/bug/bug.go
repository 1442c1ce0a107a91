// Package bug reproduces the shape of enetx/surf#44
// (https://github.com/enetx/surf/issues/44, fixed in commit 64ff4b7): the
// HTTP client decodes zstd response bodies with decoders taken from a
// sync.Pool. The pooled decoder is wrapped as zstdReadCloser, which embeds the
// decoder's IOReadCloser view. Its Close method closes that view (which
// closes the decoder itself) and then puts the decoder back into the pool
// without resetting it, so the pooled decoder is dead and still points at the
// previous response's body. The next request that takes it from the pool
// fails with "decoder used after Close" under concurrency. The fix reads from
// the decoder directly and calls Reset(nil) instead of Close before the Put.
// Check: noreset (zstdReadCloser.Close puts the decoder back still holding the
// previous stream and the closed state).
package bug

import (
	"errors"
	"io"
	"sync"
)

// Decoder stands in for the third-party zstd decoder: Reset rebinds it to a
// new source, Close releases it for good.
type Decoder struct {
	src    io.Reader
	closed bool
}

var errDecoderClosed = errors.New("decoder used after Close")

// NewReader returns a decoder reading from r.
func NewReader(r io.Reader) (*Decoder, error) {
	d := &Decoder{}
	if err := d.Reset(r); err != nil {
		return nil, err
	}
	return d, nil
}

// Reset rebinds the decoder to r; r may be nil to drop the old source.
func (d *Decoder) Reset(r io.Reader) error {
	if d.closed {
		return errDecoderClosed
	}
	d.src = r
	return nil
}

func (d *Decoder) Read(p []byte) (int, error) {
	if d.closed {
		return 0, errDecoderClosed
	}
	if d.src == nil {
		return 0, io.EOF
	}
	return d.src.Read(p)
}

// Close shuts the decoder down; it cannot be used afterwards.
func (d *Decoder) Close() {
	d.closed = true
}

type decoderReadCloser struct{ d *Decoder }

func (rc decoderReadCloser) Read(p []byte) (int, error) { return rc.d.Read(p) }

func (rc decoderReadCloser) Close() error {
	rc.d.Close()
	return nil
}

// IOReadCloser returns the decoder as an io.ReadCloser whose Close closes it.
func (d *Decoder) IOReadCloser() io.ReadCloser {
	return decoderReadCloser{d: d}
}

// zstdDecoderPool pools Decoder instances.
var zstdDecoderPool = sync.Pool{
	New: func() any {
		dec, _ := NewReader(nil)
		return dec
	},
}

// zstdReadCloser wraps a zstd decoder and returns it to the pool on Close.
type zstdReadCloser struct {
	io.ReadCloser
	dec *Decoder
}

// Close closes the underlying reader and returns the decoder to the pool.
func (zr *zstdReadCloser) Close() error {
	err := zr.ReadCloser.Close()
	zstdDecoderPool.Put(zr.dec) // want `noreset`
	return err
}

// acquireZstdReader gets a decoder from the pool and resets it with r.
func acquireZstdReader(r io.Reader) (io.ReadCloser, error) {
	dec := zstdDecoderPool.Get().(*Decoder)
	if err := dec.Reset(r); err != nil {
		return nil, err
	}

	return &zstdReadCloser{
		ReadCloser: dec.IOReadCloser(),
		dec:        dec,
	}, nil
}

// decodeBody decompresses a zstd response body.
func decodeBody(body io.Reader) ([]byte, error) {
	rc, err := acquireZstdReader(body)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}
