// Source: https://github.com/XTLS/Xray-core/pull/599 ("Check buffer before
// releasing and reusing", merge commit
// 73e10f0f6f8b56ed660971c0ee50f8759e21a737, branch commits b9778999,
// 3531b95d, e4bf6207), common/buf/buffer.go and common/bytespool/pool.go.
//
// Bug: buf.Buffer takes its 8 KiB backing slices from the 8192-byte class of
// bytespool's size-classed sync.Pools, which it shares with bytespool.Free.
// Buffer.Release put whatever slice the Buffer held back into that pool
// without looking at its capacity: a Buffer made by NewExisted wraps a
// caller's slice of any capacity >= Size, and bytespool.Free also files
// slices of any capacity between 8 KiB and 32 KiB into the same class, so
// the pool kept and handed out slices of arbitrary (larger) sizes, and New /
// StackNew used them at whatever length they came back with.
// Fix: Release only puts back slices whose capacity is exactly Size, and
// New / StackNew re-slice what they get to Size (allocating if too small).
//
// (The pool stores []byte values, not pointers, in both versions; that is
// upstream's code and not the bug fixed here.)
//
// Check: unbounded (at the pool.Put in Buffer.Release: a slice of any
// capacity goes back into the fixed-size 8 KiB class)
package fixed

import "sync"

func createAllocFunc(size int32) func() interface{} {
	return func() interface{} {
		return make([]byte, size)
	}
}

// The following parameters controls the size of buffer pools.
// There are numPools pools. Starting from 2k size, the size of each pool is sizeMulti of the previous one.
// Package buf is guaranteed to not use buffers larger than the largest pool.
// Other packets may use larger buffers.
const (
	numPools  = 4
	sizeMulti = 4
)

var (
	bpool     [numPools]sync.Pool
	bpoolSize [numPools]int32
)

func init() {
	size := int32(2048)
	for i := 0; i < numPools; i++ {
		bpool[i] = sync.Pool{
			New: createAllocFunc(size),
		}
		bpoolSize[i] = size
		size *= sizeMulti
	}
}

// GetPool returns a sync.Pool that generates bytes array with at least the given size.
// It may return nil if no such pool exists.
func GetPool(size int32) *sync.Pool {
	for idx, ps := range bpoolSize {
		if size <= ps {
			return &bpool[idx]
		}
	}
	return nil
}

// Alloc returns a byte slice with at least the given size. Minimum size of returned slice is 2048.
func Alloc(size int32) []byte {
	pool := GetPool(size)
	if pool != nil {
		return pool.Get().([]byte)
	}
	return make([]byte, size)
}

// Free puts a byte slice into the internal pool.
func Free(b []byte) {
	size := int32(cap(b))
	b = b[0:cap(b)]
	for i := numPools - 1; i >= 0; i-- {
		if size >= bpoolSize[i] {
			bpool[i].Put(b)
			return
		}
	}
}
