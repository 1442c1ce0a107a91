// Package fixed is dgraph-io/dgraph#9641's fix
// (https://github.com/dgraph-io/dgraph/pull/9641): Read no longer returns the
// decoder to the pool on io.EOF; the wrapper keeps it, and the garbage
// collector reclaims it once no reference remains.
package fixed

import (
	"bufio"
	"io"
	"sync"
)

type decoder struct {
	src *bufio.Reader
}

func (d *decoder) Reset(r io.Reader) {
	if r == nil {
		d.src = nil
		return
	}
	d.src = bufio.NewReader(r)
}

func (d *decoder) Read(p []byte) (int, error) {
	if d.src == nil {
		return 0, io.EOF
	}
	return d.src.Read(p)
}

var decoderPool = sync.Pool{New: func() any { return new(decoder) }}

type snappyReadCloser struct {
	dec *decoder
	rc  io.ReadCloser
}

func newSnappyReadCloser(rc io.ReadCloser) *snappyReadCloser {
	d := decoderPool.Get().(*decoder)
	d.Reset(rc)
	return &snappyReadCloser{dec: d, rc: rc}
}

func (s *snappyReadCloser) Read(p []byte) (int, error) {
	return s.dec.Read(p)
}

func (s *snappyReadCloser) Close() error {
	return s.rc.Close()
}
