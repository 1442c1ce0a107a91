// Package fixed is the repaired twin of thanos-io/thanos#4792 (https://github.com/thanos-io/thanos/pull/4792): the fix reads the capacity once, before the slice goes back to a bucket, and uses that copy for the accounting.
package fixed

import (
	"errors"
	"sync"
)

var errExhausted = errors.New("pool exhausted")

// BucketedBytes hands out byte slices from size-classed pools.
type BucketedBytes struct {
	sizes   []int
	buckets []sync.Pool
	maxSize uint64

	mtx       sync.Mutex
	usedTotal uint64
}

// NewBucketedBytes builds one pool per size class.
func NewBucketedBytes(sizes []int, maxSize uint64) *BucketedBytes {
	p := &BucketedBytes{sizes: sizes, buckets: make([]sync.Pool, len(sizes)), maxSize: maxSize}
	for i, sz := range sizes {
		sz := sz
		p.buckets[i].New = func() any {
			b := make([]byte, 0, sz)
			return &b
		}
	}
	return p
}

// Get returns a slice with capacity of at least sz.
func (p *BucketedBytes) Get(sz int) (*[]byte, error) {
	p.mtx.Lock()
	defer p.mtx.Unlock()
	if p.usedTotal+uint64(sz) > p.maxSize {
		return nil, errExhausted
	}
	for i, bktSize := range p.sizes {
		if sz > bktSize {
			continue
		}
		b := p.buckets[i].Get().(*[]byte)
		p.usedTotal += uint64(cap(*b))
		return b, nil
	}
	b := make([]byte, 0, sz)
	p.usedTotal += uint64(sz)
	return &b, nil
}

// Put returns b to the bucket that fits its capacity.
func (p *BucketedBytes) Put(b *[]byte) {
	if b == nil {
		return
	}
	sz := cap(*b)
	for i, bktSize := range p.sizes {
		if sz > bktSize {
			continue
		}
		*b = (*b)[:0]
		p.buckets[i].Put(b)
		break
	}
	p.mtx.Lock()
	defer p.mtx.Unlock()
	p.usedTotal -= uint64(sz)
}
