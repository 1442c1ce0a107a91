// Package bug reproduces the shape of thanos-io/thanos#4792 (https://github.com/thanos-io/thanos/pull/4792): BucketedBytes.Put returned the *[]byte to its size bucket's sync.Pool and only afterwards read cap(*b) to decrease the usedTotal accounting. By then another goroutine may have taken the same slice header from the pool and appended to it, which the race detector reported as a read in Put racing with a write by the new owner.
//
// Check: useafterput (pooled *[]byte dereferenced after Put in a wrapper's Put method).
package bug

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
	for i, bktSize := range p.sizes {
		if cap(*b) > bktSize {
			continue
		}
		*b = (*b)[:0]
		p.buckets[i].Put(b)
		break
	}
	p.mtx.Lock()
	defer p.mtx.Unlock()
	p.usedTotal -= uint64(cap(*b)) // want `used after|useafterput`
}
