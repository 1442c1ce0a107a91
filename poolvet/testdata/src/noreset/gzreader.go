package noreset

import (
	"bytes"
	"compress/gzip"
	"io"
	"sync"
)

// A gzip.Reader Reset onto a reader over the caller's bytes and put back
// as it is keeps the whole payload alive while it waits in the pool
// (cockroachdb/replicator#1080).
var gzrPool = sync.Pool{New: func() any { return new(gzip.Reader) }}

func gunzipPayload(data []byte) ([]byte, error) {
	zr := gzrPool.Get().(*gzip.Reader)
	defer gzrPool.Put(zr) // want `zr goes back to the pool still holding, in the reader over the caller's bytes given to Reset.*zero it before the Put \(\*zr = gzip.Reader\{\}\)`
	if err := zr.Reset(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

var gzrPool2 = sync.Pool{New: func() any { return new(gzip.Reader) }}

// Zeroed before the Put: silent.
func gunzipPayload2(data []byte) ([]byte, error) {
	zr := gzrPool2.Get().(*gzip.Reader)
	if err := zr.Reset(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	defer func() {
		*zr = gzip.Reader{}
		gzrPool2.Put(zr)
	}()
	return io.ReadAll(zr)
}

var gzrPool3 = sync.Pool{New: func() any { return new(gzip.Reader) }}

// Reset onto the caller's stream: what it pins once drained is small, and
// zeroing would cost a header read on every Reset; silent.
func gunzipStream(r io.Reader) ([]byte, error) {
	zr := gzrPool3.Get().(*gzip.Reader)
	defer gzrPool3.Put(zr)
	if err := zr.Reset(r); err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
