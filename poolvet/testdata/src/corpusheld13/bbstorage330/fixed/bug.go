// Package fixed is buildbarn/bb-storage#330 after the fix
// (https://github.com/buildbarn/bb-storage/pull/330): the redundant defer
// is gone (the CAS buffer owns and closes the reader), and the metrics
// wrapper's Close forgets the decoder after releasing it, so a second
// Close is a no-op.
package fixed

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
	d := m.dec
	if d == nil {
		return nil
	}
	m.dec = nil
	releasesTotal.Add(1)
	d.src = nil
	d.read = 0
	decoderPool.Put(d)
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
	b := newCASBufferFromReader(zr)
	data, err := b.toByteSlice()
	if err != nil {
		return err
	}
	s.blobs[key] = data
	return nil
}
