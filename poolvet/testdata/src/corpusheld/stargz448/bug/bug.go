// Package bug reproduces the shape of containerd/stargz-snapshotter#448
// (https://github.com/containerd/stargz-snapshotter/pull/448): the
// directory cache put bytes.Buffers back into its pool on the abort path
// with their contents, so the pool held (and handed out) dirty buffers;
// the fix routes every Put through putBuffer, which calls Reset.
//
// Check: noreset (a *bytes.Buffer taken from a pool and put back without
// Reset).
package bug

import (
	"bytes"
	"errors"
	"sync"
)

const maxBuf = 1 << 20

type directoryCache struct {
	bufPool *sync.Pool
	mu      sync.Mutex
	m       map[string]*bytes.Buffer
}

func newCache() *directoryCache {
	return &directoryCache{
		bufPool: &sync.Pool{New: func() any { return new(bytes.Buffer) }},
		m:       map[string]*bytes.Buffer{},
	}
}

func (dc *directoryCache) Add(key string, data []byte) error {
	b := dc.bufPool.Get().(*bytes.Buffer)
	b.Write(data)
	if key == "" {
		if b.Cap() <= maxBuf {
			dc.bufPool.Put(b) // want `noreset|without Reset|not reset`
		}
		return errors.New("empty key")
	}
	dc.mu.Lock()
	dc.m[key] = b
	dc.mu.Unlock()
	return nil
}
