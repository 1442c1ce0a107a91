// Package fixed is pierrec/lz4#82 after the fix: the pool holds pointers to
// fixed-size arrays, so Put stores the pointer without allocating.
package fixed

import "sync"

const (
	hashLog   = 16
	tableSize = 1 << hashLog
	minMatch  = 4
)

var tablePool = sync.Pool{
	New: func() any { return new([tableSize]int) },
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
	table := tablePool.Get().(*[tableSize]int)
	defer tablePool.Put(table)
	*table = [tableSize]int{}
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
