// Package bug reproduces the shape of gonum/matrix#226 (https://github.com/gonum/matrix/pull/226,
// commit https://github.com/gonum/gonum/commit/31f653a7cfae8ed74388c63302892140e881b1dd
// "Fix putWorkspaceVec to put into Vector pool and not Dense pool"): mat64 keeps two arrays of
// size-classed sync.Pools, one whose New makes *Dense workspaces and one whose New makes *Vector
// workspaces. putWorkspaceVec indexed the Dense array, so used *Vector workspaces landed in pools
// that getWorkspace type-asserts to *Dense, which panics on the next matrix workspace request of
// that size class.
// Check: typemismatch (a *Vector is put into a pool whose New and Get give *Dense; report at the
// Put in putWorkspaceVec).
package bug

import "sync"

type general struct {
	Rows, Cols, Stride int
	Data               []float64
}

type vector struct {
	Inc  int
	Data []float64
}

type Dense struct {
	mat              general
	capRows, capCols int
}

type Vector struct {
	mat vector
	n   int
}

// bits returns the ceiling of the base 2 log of v.
func bits(v uint64) byte {
	var b byte
	for (uint64(1) << b) < v {
		b++
	}
	return b
}

// pool holds size-classed *Dense workspaces; element i hands out data slices of cap 1<<i.
var pool [63]sync.Pool

// poolVec is the *Vector counterpart of pool.
var poolVec [63]sync.Pool

func init() {
	for i := range pool {
		l := 1 << uint(i)
		pool[i].New = func() interface{} {
			return &Dense{mat: general{Data: make([]float64, l)}}
		}
		poolVec[i].New = func() interface{} {
			return &Vector{mat: vector{Inc: 1, Data: make([]float64, l)}}
		}
	}
}

func zero(f []float64) {
	for i := range f {
		f[i] = 0
	}
}

func getWorkspace(r, c int, clear bool) *Dense {
	l := uint64(r * c)
	w := pool[bits(l)].Get().(*Dense)
	w.mat.Data = w.mat.Data[:l]
	if clear {
		zero(w.mat.Data)
	}
	w.mat.Rows = r
	w.mat.Cols = c
	w.mat.Stride = c
	w.capRows = r
	w.capCols = c
	return w
}

func putWorkspace(w *Dense) {
	pool[bits(uint64(cap(w.mat.Data)))].Put(w)
}

func getWorkspaceVec(n int, clear bool) *Vector {
	l := uint64(n)
	v := poolVec[bits(l)].Get().(*Vector)
	v.mat.Data = v.mat.Data[:l]
	if clear {
		zero(v.mat.Data)
	}
	v.n = n
	return v
}

// putWorkspaceVec returns a used *Vector to the workspace pool of its size class.
func putWorkspaceVec(v *Vector) {
	pool[bits(uint64(cap(v.mat.Data)))].Put(v) // want `typemismatch`
}

// MulVec computes v = a * b, going through a workspace when v aliases b.
func (v *Vector) MulVec(a *Dense, b *Vector) {
	r := a.mat.Rows
	if v == b {
		tmp := getWorkspaceVec(r, true)
		tmp.MulVec(a, b)
		copy(v.mat.Data, tmp.mat.Data)
		putWorkspaceVec(tmp)
		return
	}
	for i := 0; i < r; i++ {
		var s float64
		row := a.mat.Data[i*a.mat.Stride : i*a.mat.Stride+a.mat.Cols]
		for j, x := range row {
			s += x * b.mat.Data[j*b.mat.Inc]
		}
		v.mat.Data[i*v.mat.Inc] = s
	}
}

// Mul computes d = a * b, going through a workspace when d aliases an operand.
func (d *Dense) Mul(a, b *Dense) {
	if d == a || d == b {
		tmp := getWorkspace(a.mat.Rows, b.mat.Cols, true)
		tmp.Mul(a, b)
		copy(d.mat.Data, tmp.mat.Data)
		putWorkspace(tmp)
		return
	}
	for i := 0; i < a.mat.Rows; i++ {
		for j := 0; j < b.mat.Cols; j++ {
			var s float64
			for k := 0; k < a.mat.Cols; k++ {
				s += a.mat.Data[i*a.mat.Stride+k] * b.mat.Data[k*b.mat.Stride+j]
			}
			d.mat.Data[i*d.mat.Stride+j] = s
		}
	}
}
