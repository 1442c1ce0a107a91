// Package fixed is pierrec/lz4#74 with the fix of commit f335e39: the pool
// holds pointers to fixed-size arrays, and callers slice them.
package fixed

import "sync"

const htSize = 1 << 12

// HashTablePool pools hash tables for CompressBlock.
var HashTablePool = hashTablePool{sync.Pool{New: func() any { return new([htSize]int) }}}

type hashTablePool struct {
	sync.Pool
}

func (p *hashTablePool) Get() *[htSize]int {
	return p.Pool.Get().(*[htSize]int)
}

// Put zeroes the table to keep the output deterministic.
func (p *hashTablePool) Put(t *[htSize]int) {
	*t = [htSize]int{}
	p.Pool.Put(t)
}

func hash(x uint32) uint32 { return (x * 2654435761) >> 20 }

// CompressBlock counts the matches a hash-table compressor would find.
func CompressBlock(src []byte, hashTable []int) int {
	if cap(hashTable) < htSize {
		poolTable := HashTablePool.Get()
		defer HashTablePool.Put(poolTable)
		hashTable = poolTable[:]
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
