// Package fixed is a fixed twin of RoaringBitmap/roaring#167
// (https://github.com/RoaringBitmap/roaring/issues/167): the pool keeps
// *[]container.
package fixed

import "sync"

type container interface{ cardinality() int }

var containerSlicePool = sync.Pool{New: func() any { s := make([]container, 0, 16); return &s }}

func ParAnd(groups [][]container) int {
	total := 0
	for _, g := range groups {
		sp := containerSlicePool.Get().(*[]container)
		cs := append((*sp)[:0], g...)
		for _, c := range cs {
			total += c.cardinality()
		}
		clear(cs)
		if cap(cs) > 1024 {
			continue
		}
		*sp = cs[:0]
		containerSlicePool.Put(sp)
	}
	return total
}
