// Package fixed is the fix of containerd/stargz-snapshotter#448
// (https://github.com/containerd/stargz-snapshotter/pull/448): putBuffer
// resets the buffer before the Put.
package fixed

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

func (dc *directoryCache) putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxBuf {
		return
	}
	b.Reset()
	dc.bufPool.Put(b)
}

func (dc *directoryCache) Add(key string, data []byte) error {
	b := dc.bufPool.Get().(*bytes.Buffer)
	b.Write(data)
	if key == "" {
		dc.putBuffer(b)
		return errors.New("empty key")
	}
	dc.mu.Lock()
	dc.m[key] = b
	dc.mu.Unlock()
	return nil
}
