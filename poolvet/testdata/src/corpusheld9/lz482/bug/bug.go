// Package bug reproduces the shape of pierrec/lz4#82
// (https://github.com/pierrec/lz4/pull/82): the block compressor kept its
// hash tables in a sync.Pool as plain []int slices. Handing a slice to
// Pool.Put converts it to an interface, which moves the slice header to the
// heap on every call, so each compressed block paid an allocation the pool was
// meant to save. The fix pooled pointers to fixed-size arrays instead.
//
// Check: nonpointer (a []int hash table put back into a sync.Pool by a
// deferred Put).
package bug

import "sync"

const (
	hashLog   = 16
	tableSize = 1 << hashLog
	minMatch  = 4
)

var tablePool = sync.Pool{
	New: func() any { return make([]int, tableSize) },
}

func hash4(x uint32) uint32 {
	return (x * 2654435761) >> (32 - hashLog)
}

func load32(b []byte, i int) uint32 {
	return uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
}

// CompressBlock reports how many positions of src repeat an earlier 4-byte
// sequence, using a pooled hash table of last positions.
func CompressBlock(src []byte) int {
	table := tablePool.Get().([]int)
	defer tablePool.Put(table) // want `nonpointer`
	for i := range table {
		table[i] = 0
	}
	matches := 0
	for i := 0; i+minMatch <= len(src); i++ {
		seq := load32(src, i)
		h := hash4(seq)
		if ref := table[h] - 1; ref >= 0 && load32(src, ref) == seq {
			matches++
		}
		table[h] = i + 1
	}
	return matches
}
