// Package bug reproduces the shape of pierrec/lz4#74
// (https://github.com/pierrec/lz4/pull/74, staticcheck SA6002 reported in
// the PR; fixed in commit f335e39 "lz4block: Use pointer-to-array in pool,
// not slice"): the block compressor pooled its []int hash tables in a
// sync.Pool embedded in a small wrapper type, so every Put boxed a slice
// header and allocated (up to 2 allocations per CompressBlockHC call).
//
// Check: nonpointer (a []int put into a sync.Pool embedded in a wrapper; the
// report is at the Put inside the wrapper).
package bug

import "sync"

const htSize = 1 << 12

// HashTablePool pools hash tables for CompressBlock.
var HashTablePool = hashTablePool{sync.Pool{New: func() any { return make([]int, htSize) }}}

type hashTablePool struct {
	sync.Pool
}

func (p *hashTablePool) Get() []int {
	return p.Pool.Get().([]int)
}

// Put zeroes the table to keep the output deterministic.
func (p *hashTablePool) Put(t []int) {
	for i := range t {
		t[i] = 0
	}
	p.Pool.Put(t) // want `nonpointer`
}

func hash(x uint32) uint32 { return (x * 2654435761) >> 20 }

// CompressBlock counts the matches a hash-table compressor would find.
func CompressBlock(src []byte, hashTable []int) int {
	if cap(hashTable) < htSize {
		hashTable = HashTablePool.Get()
		defer HashTablePool.Put(hashTable)
	} else {
		hashTable = hashTable[:htSize]
	}
	matches := 0
	for i := 0; i+4 <= len(src); i++ {
		seq := uint32(src[i]) | uint32(src[i+1])<<8 | uint32(src[i+2])<<16 | uint32(src[i+3])<<24
		h := hash(seq) & (htSize - 1)
		if hashTable[h] > 0 {
			matches++
		}
		hashTable[h] = i + 1
	}
	return matches
}
