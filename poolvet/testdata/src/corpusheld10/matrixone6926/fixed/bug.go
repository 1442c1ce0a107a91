// Package fixed is matrixorigin/matrixone#6926 with the fix the maintainers
// gave in the issue (https://github.com/matrixorigin/matrixone/issues/6926):
// zs1 gets a copy of zs2 instead of sharing its array, so each array goes
// back once (the array first taken for zs1 is left to the GC, as in the
// fix).
package fixed

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
	zs1 = append([]int64{}, zs2...)
	PutSels(zs2)
	PutSels(zs1)
	return n
}
