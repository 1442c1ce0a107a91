// Package bug reproduces the shape of RoaringBitmap/roaring#167
// (https://github.com/RoaringBitmap/roaring/issues/167): ParHeapOr and
// ParAnd kept container slices in a sync.Pool as slice values, and
// staticcheck reported SA6002 at both Puts (parallel.go:224 and :243).
//
// Check: nonpointer.
package bug

import "sync"

type container interface{ cardinality() int }

var containerSlicePool = sync.Pool{New: func() any { return make([]container, 0, 16) }}

func ParAnd(groups [][]container) int {
	total := 0
	for _, g := range groups {
		cs := containerSlicePool.Get().([]container)
		cs = append(cs[:0], g...)
		for _, c := range cs {
			total += c.cardinality()
		}
		clear(cs)
		containerSlicePool.Put(cs[:0]) // want `non-pointer|nonpointer`
	}
	return total
}
