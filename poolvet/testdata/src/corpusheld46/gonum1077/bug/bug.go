// Package bug reproduces the shape of gonum/gonum#1077
// (https://github.com/gonum/gonum/pull/1077, commit 20883b5a "mat: reduce
// allocation from pool use"): the mat package keeps size-stratified
// sync.Pools of []float64 and []int work slices for LAPACK calls. Both the
// pools' New functions and the put helpers store the slices themselves, so
// every putFloats/putInts boxes a slice header into an interface and
// allocates, defeating the pool (staticcheck SA6002). The fix stores
// pointers to the slices (*[]float64, *[]int) and dereferences them on Get.
// Check: nonpointer (the Puts in putFloats and putInts).
package bug

import (
	"math/bits"
	"sync"
)

var (
	// poolFloats holds []float64 work slices; element i hands out slices
	// with a capacity of 1<<i.
	poolFloats [63]sync.Pool

	// poolInts is the []int equivalent of poolFloats.
	poolInts [63]sync.Pool
)

func init() {
	for i := range poolFloats {
		l := 1 << uint(i)
		poolFloats[i].New = func() interface{} {
			return make([]float64, l)
		}
		poolInts[i].New = func() interface{} {
			return make([]int, l)
		}
	}
}

// bitsFor returns the pool index for a slice of length v.
func bitsFor(v uint64) int {
	if v == 0 {
		return 0
	}
	return bits.Len64(v - 1)
}

func zero(f []float64) {
	for i := range f {
		f[i] = 0
	}
}

// getFloats returns a []float64 of length l whose capacity is below 2*l.
// When clear is set the visible part is zeroed.
func getFloats(l int, clear bool) []float64 {
	w := poolFloats[bitsFor(uint64(l))].Get().([]float64)
	w = w[:l]
	if clear {
		zero(w)
	}
	return w
}

// putFloats returns w to its size class. Callers must not keep references
// to w's backing array.
func putFloats(w []float64) {
	poolFloats[bitsFor(uint64(cap(w)))].Put(w) // want `nonpointer`
}

// getInts returns a []int of length l whose capacity is below 2*l.
func getInts(l int, clear bool) []int {
	w := poolInts[bitsFor(uint64(l))].Get().([]int)
	w = w[:l]
	if clear {
		for i := range w {
			w[i] = 0
		}
	}
	return w
}

// putInts returns w to its size class.
func putInts(w []int) {
	poolInts[bitsFor(uint64(cap(w)))].Put(w) // want `nonpointer`
}

// Dense is a row-major matrix.
type Dense struct {
	rows, cols int
	data       []float64
}

// factorize stands in for the LAPACK LU factorization.
func factorize(a []float64, n int, ipiv []int) bool {
	for i := 0; i < n; i++ {
		ipiv[i] = i
		if a[i*n+i] == 0 {
			return false
		}
	}
	return true
}

// normInf stands in for Lange, using work as scratch.
func normInf(a []float64, n int, work []float64) float64 {
	var max float64
	for i := 0; i < n; i++ {
		work[i] = 0
		for j := 0; j < n; j++ {
			v := a[i*n+j]
			if v < 0 {
				v = -v
			}
			work[i] += v
		}
		if work[i] > max {
			max = work[i]
		}
	}
	return max
}

// Cond factorizes a copy of m and returns its infinity norm, or -1 when
// the matrix is singular.
func (m *Dense) Cond() float64 {
	n := m.rows
	a := getFloats(n*n, false)
	defer putFloats(a)
	copy(a, m.data)

	work := getFloats(4*n, false)
	defer putFloats(work)
	norm := normInf(a, n, work)

	ipiv := getInts(n, false)
	defer putInts(ipiv)
	if !factorize(a, n, ipiv) {
		return -1
	}
	return norm
}
