// Package bug reproduces the shape of dgraph-io/dgraph#9641
// (https://github.com/dgraph-io/dgraph/pull/9641, "don't return snappy reader
// to pool on EOF while caller holds reference"). The connection's
// decompressing reader put its pooled snappy reader back into a sync.Pool as
// soon as a Read hit io.EOF, but kept the pointer in its field; the caller
// still held the wrapper, so a later Read (or the goroutine that got the
// reader from the pool and Reset it) worked on a shared decoder.
//
// Check: useafterput (Put inside a method of an object kept in a field that
// is not cleared; the next call uses the field). The report belongs at the
// read through s.dec in Read, reached again after a call that put it back
// (unsure: the analyzer might rather flag the Put for leaving the field set).
package bug

import (
	"bufio"
	"io"
	"sync"
)

// decoder stands in for snappy.Reader: a reusable decompressor.
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
	n, err := s.dec.Read(p) // want `useafterput`
	if err == io.EOF {
		// The stream is done: recycle the decoder early.
		s.dec.Reset(nil)
		decoderPool.Put(s.dec)
	}
	return n, err
}

func (s *snappyReadCloser) Close() error {
	return s.rc.Close()
}
