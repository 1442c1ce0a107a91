// Package bug reproduces the shape of matrixorigin/matrixone#6926
// (https://github.com/matrixorigin/matrixone/issues/6926): a data race in
// the BVT run was traced to the pool of selection vectors (selsPool). A
// user took two sels from the pool, then reassigned one variable to the
// other (zs1 = zs2) and gave both back, so the same backing array went into
// the pool twice and two later users shared it. The maintainers' fix copies
// instead of aliasing (zs1 = append([]int64{}, zs2...)).
//
// Check: doubleput (the second PutSels puts the array the first PutSels
// already put, through a variable assigned from the other one). PutSels
// drops oversized vectors in both twins so that only the double Put differs.
package bug

import "sync"

const maxPooledSels = 1 << 12

var selsPool = sync.Pool{New: func() any {
	ss := make([]int64, 0, 16)
	return &ss
}}

func GetSels() []int64 {
	ss := selsPool.Get().(*[]int64)
	return (*ss)[:0]
}

func PutSels(sels []int64) {
	if cap(sels) > maxPooledSels {
		return
	}
	sels = sels[:0]
	selsPool.Put(&sels)
}

type Batch struct {
	Zs []int64
}

// Shrink keeps the rows of bat selected by the filter.
func Shrink(bat *Batch, keep func(int64) bool) int {
	zs1 := GetSels()
	zs2 := GetSels()
	for _, z := range bat.Zs {
		zs1 = append(zs1, z)
	}
	for _, z := range zs1 {
		if keep(z) {
			zs2 = append(zs2, z)
		}
	}
	n := len(zs2)
	zs1 = zs2
	PutSels(zs2)
	PutSels(zs1) // want `doubleput`
	return n
}
