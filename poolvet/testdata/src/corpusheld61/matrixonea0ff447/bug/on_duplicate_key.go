// Source: https://github.com/matrixorigin/matrixone/commit/a0ff447529ddc5be8066980e0bdf0006eacb67dd
// ("fix a double free bug of on_duplicate_key", part of
// https://github.com/matrixorigin/matrixone/pull/11204).
//
// Bug: the on-duplicate-key operator builds a one-row newBatch per input row
// and, at the end of the loop body, returns it with proc.PutBatch, which
// drops the batch's count and hands its vectors to the process's vector pool
// (a free list per type). updateOldBatch, which evaluates the update
// expressions over that batch, also called evalBatch.Clean(proc.Mp()) before
// returning, freeing the same batch's vectors into the mpool. The caller's
// PutBatch then released newBatch a second time.
//
// Fix: remove evalBatch.Clean from updateOldBatch; the caller owns newBatch
// and releases it once.
//
// Check: doubleput (proc.PutBatch(newBatch) after updateOldBatch already
// cleaned newBatch)
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

type MPool struct {
	mu   sync.Mutex
	free [][]byte
}

func (mp *MPool) Alloc(sz int) []byte {
	mp.mu.Lock()
	defer mp.mu.Unlock()
	if n := len(mp.free); n > 0 && cap(mp.free[n-1]) >= sz {
		bs := mp.free[n-1]
		mp.free = mp.free[:n-1]
		return bs[:sz]
	}
	return make([]byte, sz)
}

func (mp *MPool) Free(bs []byte) {
	if bs == nil || cap(bs) == 0 {
		return
	}
	mp.mu.Lock()
	defer mp.mu.Unlock()
	mp.free = append(mp.free, bs)
}

type Vector struct {
	oid  uint8
	data []byte
}

func NewVec(oid uint8) *Vector { return &Vector{oid: oid} }

func (v *Vector) Capacity() int { return cap(v.data) }

func (v *Vector) Free(mp *MPool) {
	mp.Free(v.data)
	v.data = nil
}

func (v *Vector) UnionOne(w *Vector, sel int64, mp *MPool) error {
	if int(sel+1)*8 > len(w.data) {
		return errors.New("out of range")
	}
	data := mp.Alloc(len(v.data) + 8)
	copy(data, v.data)
	copy(data[len(v.data):], w.data[sel*8:sel*8+8])
	mp.Free(v.data)
	v.data = data
	return nil
}

type Batch struct {
	Cnt      int64
	Attrs    []string
	Vecs     []*Vector
	rowCount int
}

func NewWithSize(n int) *Batch {
	return &Batch{Cnt: 1, Vecs: make([]*Vector, n)}
}

func (bat *Batch) SetVector(pos int32, vec *Vector) { bat.Vecs[pos] = vec }
func (bat *Batch) SetRowCount(n int)                { bat.rowCount = n }

func (bat *Batch) Clean(m *MPool) {
	if atomic.LoadInt64(&bat.Cnt) == 0 {
		// panic("batch is already cleaned")
		return
	}
	if atomic.AddInt64(&bat.Cnt, -1) > 0 {
		return
	}
	for _, vec := range bat.Vecs {
		if vec != nil {
			vec.Free(m)
		}
	}
	bat.Attrs = nil
	bat.rowCount = 0
	bat.Vecs = nil
}

const VectorLimit = 32

type vectorPool struct {
	sync.Mutex
	vecs map[uint8][]*Vector
}

func (vp *vectorPool) putVector(vec *Vector) bool {
	vp.Lock()
	defer vp.Unlock()
	key := vec.oid
	if len(vp.vecs[key]) > VectorLimit {
		return false
	}
	vp.vecs[key] = append(vp.vecs[key], vec)
	return true
}

type Process struct {
	mp *MPool
	vp *vectorPool
}

func (proc *Process) Mp() *MPool { return proc.mp }

func (proc *Process) PutBatch(bat *Batch) {
	if atomic.LoadInt64(&bat.Cnt) == 0 {
		panic("put batch with zero cnt")
	}
	if atomic.AddInt64(&bat.Cnt, -1) > 0 {
		return
	}
	for i := range bat.Vecs {
		if bat.Vecs[i] != nil {
			vec := bat.Vecs[i]
			if vec.Capacity() > 8192*64 {
				// very large vectors should not put back into pool, which cause these memory can not release
				vec.Free(proc.Mp())
			} else if proc.vp.putVector(vec) {
				bat.Vecs[i] = nil
			}
		}
	}
	bat.Vecs = nil
	bat.Attrs = nil
	bat.SetRowCount(0)
}

func fetchOneRowAsBatch(idx int, originBatch *Batch, proc *Process, attrs []string) (*Batch, error) {
	newBatch := NewWithSize(len(attrs))
	newBatch.Attrs = attrs
	for i, v := range originBatch.Vecs {
		newVec := NewVec(v.oid)
		if err := newVec.UnionOne(v, int64(idx), proc.Mp()); err != nil {
			newBatch.Clean(proc.Mp())
			return nil, err
		}
		newBatch.SetVector(int32(i), newVec)
	}
	newBatch.SetRowCount(1)
	return newBatch, nil
}

func updateOldBatch(evalBatch *Batch, proc *Process, columnCount int, attrs []string) (*Batch, error) {
	var originVec *Vector
	newBatch := NewWithSize(len(attrs))
	newBatch.Attrs = attrs
	for i := range newBatch.Attrs {
		if i < columnCount {
			// update insert cols
			originVec = evalBatch.Vecs[i+columnCount]
		} else {
			// keep old cols
			originVec = evalBatch.Vecs[i]
		}
		newVec := NewVec(originVec.oid)
		if err := newVec.UnionOne(originVec, 0, proc.Mp()); err != nil {
			newBatch.Clean(proc.Mp())
			return nil, err
		}
		newBatch.SetVector(int32(i), newVec)
	}

	newBatch.SetRowCount(1)
	evalBatch.Clean(proc.Mp())
	return newBatch, nil
}

func resetInsertBatchForOnduplicateKey(proc *Process, originBatch *Batch, insertBatch *Batch, rowCount, insertColCount int, attrs []string, conflict func(*Batch) bool) error {
	for i := 0; i < rowCount; i++ {
		newBatch, err := fetchOneRowAsBatch(i, originBatch, proc, attrs)
		if err != nil {
			return err
		}
		if conflict(newBatch) {
			tmpBatch, err := updateOldBatch(newBatch, proc, insertColCount, attrs)
			if err != nil {
				newBatch.Clean(proc.Mp())
				return err
			}
			for j := 0; j < insertColCount; j++ {
				if err := insertBatch.Vecs[j].UnionOne(tmpBatch.Vecs[j], 0, proc.Mp()); err != nil {
					tmpBatch.Clean(proc.Mp())
					newBatch.Clean(proc.Mp())
					return err
				}
			}
			proc.PutBatch(tmpBatch)
		} else {
			for j := range insertBatch.Vecs {
				if err := insertBatch.Vecs[j].UnionOne(newBatch.Vecs[j], 0, proc.Mp()); err != nil {
					newBatch.Clean(proc.Mp())
					return err
				}
			}
		}
		proc.PutBatch(newBatch) // want `doubleput`
	}
	return nil
}
