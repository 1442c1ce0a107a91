// Package bug reproduces the shape of buildbarn/bb-storage#330
// (https://github.com/buildbarn/bb-storage/pull/330): writeZstd wrapped
// the incoming stream in a pooled zstd decoder, deferred its Close, and
// handed it to a CAS buffer that takes ownership of the reader and closes
// it itself once consumed. The decoder was closed twice, and the metrics
// wrapper's Close had no double-close guard, so each compressed write
// released the pooled decoder a second time.
//
// Check: doubleput (a wrapper's Close that puts the pooled decoder it still
// holds, called by the buffer that owns the reader and again by a defer).
// The second want is on the call that closes the reader while the deferred
// Close is still pending (the explicit Put on top of a deferred one).
package bug

import (
	"io"
	"sync"
	"sync/atomic"
)

type pooledDecoder struct {
	src  io.Reader
	read int64
}

func (d *pooledDecoder) Read(p []byte) (int, error) {
	n, err := d.src.Read(p)
	d.read += int64(n)
	return n, err
}

var decoderPool = sync.Pool{New: func() any { return new(pooledDecoder) }}

var releasesTotal atomic.Int64

// metricsDecoder counts acquisitions and releases of pooled decoders.
type metricsDecoder struct {
	dec *pooledDecoder
}

func newDecoder(r io.Reader) *metricsDecoder {
	d := decoderPool.Get().(*pooledDecoder)
	d.src = r
	d.read = 0
	return &metricsDecoder{dec: d}
}

func (m *metricsDecoder) Read(p []byte) (int, error) { return m.dec.Read(p) }

func (m *metricsDecoder) Close() error {
	releasesTotal.Add(1)
	m.dec.src = nil
	m.dec.read = 0
	decoderPool.Put(m.dec) // want `doubleput`
	return nil
}

// casBuffer owns its reader: it closes it when the data has been consumed.
type casBuffer struct {
	r io.ReadCloser
}

func newCASBufferFromReader(r io.ReadCloser) *casBuffer {
	return &casBuffer{r: r}
}

func (b *casBuffer) toByteSlice() ([]byte, error) {
	data, err := io.ReadAll(b.r)
	b.r.Close()
	return data, err
}

type blobStore struct {
	blobs map[string][]byte
}

func (s *blobStore) writeZstd(key string, compressed io.Reader) error {
	zr := newDecoder(compressed)
	defer zr.Close()
	b := newCASBufferFromReader(zr)
	data, err := b.toByteSlice() // want `doubleput`
	if err != nil {
		return err
	}
	s.blobs[key] = data
	return nil
}
