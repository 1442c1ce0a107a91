// Package bug reproduces the shape of klauspost/reedsolomon#331
// (https://github.com/klauspost/reedsolomon/pull/331): the leopard encoder's
// work buffers are handed out by a WorkAllocator whose default implementation
// keeps them in a sync.Pool. The default allocator stores the [][]byte work
// set itself (a slice header, not a pointer) in the pool, so each deferred
// Put boxes the header into a fresh interface allocation; the review on the
// pull request asked for a *[][]byte instead.
//
// Check: nonpointer (a [][]byte value put into a sync.Pool), reported at the
// Put inside defaultWorkAllocator.Put.
package bug

import (
	"errors"
	"sync"
)

const maxPooledShardSize = 1 << 20

// WorkAllocator hands out temporary work buffers to the encoder and takes
// them back when an Encode or Reconstruct call is done.
type WorkAllocator interface {
	Get(n, size int) [][]byte
	Put([][]byte)
}

// allocAligned returns n buffers of the given size.
func allocAligned(n, size int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = make([]byte, size)
	}
	return out
}

type defaultWorkAllocator struct {
	pool sync.Pool
}

func (a *defaultWorkAllocator) Get(n, size int) [][]byte {
	var work [][]byte
	if w, ok := a.pool.Get().([][]byte); ok {
		work = w
	}
	if cap(work) >= n {
		work = work[:n]
	} else {
		work = allocAligned(n, size)
	}
	for i := range work {
		if cap(work[i]) < size {
			work[i] = allocAligned(1, size)[0]
		} else {
			work[i] = work[i][:size]
		}
	}
	return work
}

func (a *defaultWorkAllocator) Put(work [][]byte) {
	if len(work) > 0 && cap(work[0]) > maxPooledShardSize {
		return
	}
	a.pool.Put(work) // want `nonpointer`
}

type options struct {
	workAlloc WorkAllocator
}

type Option func(*options)

// WithWorkAllocator replaces the default pooled allocator.
func WithWorkAllocator(alloc WorkAllocator) Option {
	return func(o *options) { o.workAlloc = alloc }
}

type leopardFF16 struct {
	dataShards   int
	parityShards int
	workAlloc    WorkAllocator
}

func newFF16(dataShards, parityShards int, opts ...Option) *leopardFF16 {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.workAlloc == nil {
		o.workAlloc = &defaultWorkAllocator{}
	}
	return &leopardFF16{dataShards: dataShards, parityShards: parityShards, workAlloc: o.workAlloc}
}

func ceilPow2(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}

func (r *leopardFF16) encode(shards [][]byte) error {
	if len(shards) != r.dataShards+r.parityShards {
		return errors.New("wrong number of shards")
	}
	shardSize := len(shards[0])
	m := ceilPow2(r.parityShards)
	work := r.workAlloc.Get(m*2, shardSize)
	defer r.workAlloc.Put(work)

	for i := 0; i < r.dataShards && i < len(work); i++ {
		copy(work[i], shards[i])
	}
	for i := 0; i < r.parityShards; i++ {
		dst := shards[r.dataShards+i]
		for j := range dst {
			dst[j] = work[i%len(work)][j] ^ byte(i)
		}
	}
	return nil
}
