// Package bug is the fixed twin of enetx/surf#44
// (https://github.com/enetx/surf/issues/44, commit 64ff4b7): zstdReadCloser
// reads from the pooled decoder directly and, on Close, resets it with
// Reset(nil) (dropping the previous stream) instead of closing it, then puts
// it back into the pool.
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

// zstdDecoderPool pools Decoder instances.
var zstdDecoderPool = sync.Pool{
	New: func() any {
		dec, _ := NewReader(nil)
		return dec
	},
}

// zstdReadCloser wraps a zstd decoder and returns it to the pool on Close.
type zstdReadCloser struct {
	dec *Decoder
}

// Read reads decompressed data from the decoder.
func (zr *zstdReadCloser) Read(p []byte) (int, error) {
	return zr.dec.Read(p)
}

// Close resets the decoder and returns it to the pool.
func (zr *zstdReadCloser) Close() error {
	if err := zr.dec.Reset(nil); err != nil {
		return err
	}

	zstdDecoderPool.Put(zr.dec)
	return nil
}

// acquireZstdReader gets a decoder from the pool and resets it with r.
func acquireZstdReader(r io.Reader) (io.ReadCloser, error) {
	dec := zstdDecoderPool.Get().(*Decoder)
	if err := dec.Reset(r); err != nil {
		return nil, err
	}

	return &zstdReadCloser{dec: dec}, nil
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
