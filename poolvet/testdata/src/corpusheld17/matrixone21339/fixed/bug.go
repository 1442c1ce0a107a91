// Package fixed is the fixed twin of matrixorigin/matrixone#21339
// (https://github.com/matrixorigin/matrixone/pull/21339): reset no longer
// cleans buildBat, whose vectors belong to the previous operator and to the
// expression executors; those owners free them.
package fixed

import "sync"

const maxVecCap = 8192

type Vector struct {
	data []int64
}

var vecPool = sync.Pool{New: func() any { return new(Vector) }}

func NewVec() *Vector {
	v := vecPool.Get().(*Vector)
	v.data = v.data[:0]
	return v
}

// Free gives the vector back to the pool, unless it grew too large.
func (v *Vector) Free() {
	if cap(v.data) > maxVecCap {
		return
	}
	v.data = v.data[:0]
	vecPool.Put(v)
}

type Batch struct {
	Vecs []*Vector
	rows int
}

func NewWithSize(n int) *Batch { return &Batch{Vecs: make([]*Vector, n)} }

// Clean frees every vector of the batch.
func (b *Batch) Clean() {
	for _, v := range b.Vecs {
		if v != nil {
			v.Free()
		}
	}
	b.Vecs = nil
	b.rows = 0
}

// ExpressionExecutor evaluates an order-by expression into a vector it owns
// and reuses from one batch to the next.
type ExpressionExecutor struct {
	col int
	vec *Vector
}

func (e *ExpressionExecutor) Eval(bat *Batch) *Vector {
	if e.vec == nil {
		e.vec = NewVec()
	}
	e.vec.data = e.vec.data[:0]
	for _, x := range bat.Vecs[e.col].data {
		e.vec.data = append(e.vec.data, -x)
	}
	return e.vec
}

func (e *ExpressionExecutor) ResetForNextQuery() {}

func (e *ExpressionExecutor) Free() {
	if e.vec != nil {
		e.vec.Free()
		e.vec = nil
	}
}

type container struct {
	n                       int
	poses                   []int32
	executorsForOrderColumn []*ExpressionExecutor
	buildBat                *Batch // temp batch, its vectors belong to others
}

type Top struct {
	ctr container
}

func (top *Top) Call(bat *Batch) {
	if top.ctr.buildBat == nil {
		top.ctr.n = len(bat.Vecs)
		top.ctr.buildBat = NewWithSize(top.ctr.n)
	} else {
		top.ctr.buildBat.Vecs = top.ctr.buildBat.Vecs[:len(bat.Vecs)]
	}
	copy(top.ctr.buildBat.Vecs, bat.Vecs)
	top.ctr.buildBat.rows = bat.rows
	top.ctr.build(top.ctr.buildBat)
}

func (ctr *container) build(bat *Batch) {
	ctr.poses = ctr.poses[:0]
	for _, e := range ctr.executorsForOrderColumn {
		vec := e.Eval(bat)
		newColumn := true
		for j := range bat.Vecs {
			if bat.Vecs[j] == vec {
				newColumn = false
				ctr.poses = append(ctr.poses, int32(j))
				break
			}
		}
		if newColumn {
			ctr.poses = append(ctr.poses, int32(len(bat.Vecs)))
			bat.Vecs = append(bat.Vecs, vec)
		}
	}
}

func (top *Top) Reset() { top.ctr.reset() }

func (top *Top) Free() { top.ctr.free() }

func (ctr *container) reset() {
	ctr.n = 0
	ctr.poses = nil
	for _, e := range ctr.executorsForOrderColumn {
		e.ResetForNextQuery()
	}
	if ctr.buildBat != nil {
		// buildBat's vectors come from the input batch or from the
		// executors, which free them; only drop the reference here.
		ctr.buildBat = nil
	}
}

func (ctr *container) free() {
	for _, e := range ctr.executorsForOrderColumn {
		e.Free()
	}
}

// runQuery is what the pipeline does with an operator: run it, reset it at
// the end of the query, free it when the pipeline is torn down.
func runQuery(top *Top, input *Batch) {
	top.Call(input)
	top.Reset()
	top.Free()
}
