package typemismatch

import "sync"

// Size-classed tables of pools, one per type; a helper puts into the
// wrong table (gonum/matrix#226).
type denseWS struct{ data []float64 }

type vectorWS struct{ data []float64 }

var (
	densePools  [8]sync.Pool
	vectorPools [8]sync.Pool
)

func init() {
	for i := range densePools {
		n := 1 << i
		densePools[i].New = func() any { return &denseWS{data: make([]float64, n)} }
		vectorPools[i].New = func() any { return &vectorWS{data: make([]float64, n)} }
	}
}

func class(n int) int {
	c := 0
	for 1<<c < n && c < 7 {
		c++
	}
	return c
}

func getDense(n int) *denseWS { return densePools[class(n)].Get().(*denseWS) } // want `this Get's result is asserted to`

func putDense(w *denseWS) { densePools[class(cap(w.data))].Put(w) }

func getVector(n int) *vectorWS { return vectorPools[class(n)].Get().(*vectorWS) }

func putVector(v *vectorWS) {
	densePools[class(cap(v.data))].Put(v) // want `v of type \*vectorWS is put into a pool whose Gets assert \*denseWS`
}

func putVectorFixed(v *vectorWS) { vectorPools[class(cap(v.data))].Put(v) }
