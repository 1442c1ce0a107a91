// Source: https://github.com/matrixorigin/matrixone/pull/11208
// (commit 0ab56448e6bf827d034210d2c362a4021cec42de, "optimize memory reuse").
//
// Bug: Process.PutBatch hands every non-const vector of a released batch to
// the process's vectorPool (a per-type free list limited to VectorLimit
// vectors, not by size). Vectors grow through PreExtend/extend to whatever the
// operator needed, so a vector that once held a very large batch went back to
// the pool with its huge data buffer, and that memory could never be
// released while the pool kept it ("very large vectors should not put back
// into pool, which cause these memory can not release").
//
// Fix: PutBatch frees vectors whose Capacity() exceeds 8192*64 instead of
// putting them into the pool.
//
// Domain note: MatrixOne (a Go HTAP/analytics database) is outside the
// projects named in the brief; used because the listed ones ran dry.
//
// Check: unbounded (proc.vp.putVector(vec) in PutBatch pools a vector of
// unbounded capacity)
package fixed

import (
	"sync"
	"sync/atomic"
)

const VectorLimit = 32

// ---- types ----

type T uint8

type Type struct {
	Oid  T
	Size int32
}

func (t Type) TypeSize() int { return int(t.Size) }

// ---- mpool ----

type MPool struct{ allocated atomic.Int64 }

func (m *MPool) Grow(old []byte, sz int) ([]byte, error) {
	if sz <= cap(old) {
		return old[:sz], nil
	}
	ret := make([]byte, sz)
	copy(ret, old)
	m.allocated.Add(int64(sz - cap(old)))
	return ret, nil
}

func (m *MPool) Free(bs []byte) {
	m.allocated.Add(-int64(cap(bs)))
}

// ---- vector ----

const (
	FLAT = iota
	CONSTANT
)

type Vector struct {
	typ          Type
	class        int
	data         []byte
	area         []byte
	length       int
	capacity     int
	cantFreeData bool
	cantFreeArea bool
}

func NewVec(typ Type) *Vector { return &Vector{typ: typ, class: FLAT} }

func (v *Vector) GetType() *Type { return &v.typ }

func (v *Vector) Capacity() int { return v.capacity }

func (v *Vector) IsConst() bool { return v.class == CONSTANT }

func (v *Vector) NeedDup() bool { return v.cantFreeArea || v.cantFreeData }

func (v *Vector) Reset(typ Type) {
	v.typ = typ
	v.class = FLAT
	if v.area != nil {
		v.area = v.area[:0]
	}
	v.length = 0
}

func (v *Vector) Free(mp *MPool) {
	if !v.cantFreeData {
		mp.Free(v.data)
	}
	if !v.cantFreeArea {
		mp.Free(v.area)
	}
	v.class = FLAT
	v.data = nil
	v.area = nil
	v.capacity = 0
	v.length = 0
}

// PreExtend use to expand the capacity of the vector
func (v *Vector) PreExtend(rows int, mp *MPool) error {
	if v.class == CONSTANT {
		return nil
	}
	return extend(v, rows, mp)
}

func extend(v *Vector, rows int, m *MPool) error {
	if tgtCap := v.length + rows; tgtCap > v.capacity {
		sz := v.typ.TypeSize()
		ndata, err := m.Grow(v.data, tgtCap*sz)
		if err != nil {
			return err
		}
		v.data = ndata[:cap(ndata)]
		v.capacity = cap(v.data) / sz
	}
	return nil
}

// ---- batch ----

type Batch struct {
	Cnt      int64
	Attrs    []string
	Vecs     []*Vector
	rowCount int
}

var EmptyBatch = &Batch{}

func (bat *Batch) ReplaceVector(oldVec *Vector, newVec *Vector) {
	for i, vec := range bat.Vecs {
		if vec == oldVec {
			bat.Vecs[i] = newVec
		}
	}
}

func (bat *Batch) SetRowCount(n int) { bat.rowCount = n }

// ---- process ----

type vectorPool struct {
	sync.Mutex
	vecs map[uint8][]*Vector
}

type Process struct {
	mp *MPool
	vp *vectorPool
}

func New(mp *MPool) *Process {
	return &Process{
		mp: mp,
		vp: &vectorPool{vecs: make(map[uint8][]*Vector)},
	}
}

func (proc *Process) Mp() *MPool { return proc.mp }

func (proc *Process) PutBatch(bat *Batch) {
	if bat == EmptyBatch {
		return
	}
	if atomic.LoadInt64(&bat.Cnt) == 0 {
		panic("put batch with zero cnt")
	}
	if atomic.AddInt64(&bat.Cnt, -1) > 0 {
		return
	}
	for i := range bat.Vecs {
		if bat.Vecs[i] != nil {
			if !bat.Vecs[i].IsConst() && !bat.Vecs[i].NeedDup() {
				vec := bat.Vecs[i]
				if vec.Capacity() > 8192*64 {
					// very large vectors should not put back into pool, which cause these memory can not release
					vec.Free(proc.Mp())
				} else if proc.vp.putVector(vec) {
					bat.ReplaceVector(vec, nil)
				}
			} else {
				bat.Vecs[i].Free(proc.Mp())
			}
		}
	}
	bat.Vecs = nil
	bat.Attrs = nil
	bat.SetRowCount(0)
}

func (proc *Process) FreeVectors() {
	proc.vp.freeVectors(proc.Mp())
}

func (proc *Process) PutVector(vec *Vector) {
	if !proc.vp.putVector(vec) {
		vec.Free(proc.Mp())
	}
}

func (proc *Process) GetVector(typ Type) *Vector {
	if vec := proc.vp.getVector(typ); vec != nil {
		vec.Reset(typ)
		return vec
	}
	return NewVec(typ)
}

func (vp *vectorPool) freeVectors(mp *MPool) {
	vp.Lock()
	defer vp.Unlock()
	for k, vecs := range vp.vecs {
		for _, vec := range vecs {
			vec.Free(mp)
		}
		delete(vp.vecs, k)
	}
}

func (vp *vectorPool) putVector(vec *Vector) bool {
	vp.Lock()
	defer vp.Unlock()
	key := uint8(vec.GetType().Oid)
	if len(vp.vecs[key]) > VectorLimit {
		return false
	}
	vp.vecs[key] = append(vp.vecs[key], vec)
	return true
}

func (vp *vectorPool) getVector(typ Type) *Vector {
	vp.Lock()
	defer vp.Unlock()
	key := uint8(typ.Oid)
	if vecs := vp.vecs[key]; len(vecs) > 0 {
		vec := vecs[len(vecs)-1]
		vp.vecs[key] = vecs[:len(vecs)-1]
		return vec
	}
	return nil
}
