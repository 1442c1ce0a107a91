// Source: https://github.com/matrixorigin/matrixone/pull/12837
// (issue https://github.com/matrixorigin/matrixone/issues/12830, "vector
// double-free in show_account"; commit
// f18ec1a222ae83cac02ef18157f84c6b3d9ec3da, "fix dup free vector when show
// accounts").
//
// Bug: vectors hand their memory back to the session's mpool (MatrixOne's own
// memory pool with per-size free lists) in Vector.Free, called from
// Batch.Clean. mergeOutputResult stored vectors of the mo_account result
// batch (allAccountInfo[i]) directly into the output batch, so the same
// vectors were owned by two batches. The deferred cleanup in doShowAccounts
// cleans allAccountInfo and then outputBatches, freeing those vectors a
// second time.
//
// Fix: mergeOutputResult stores Dup(mp) copies of the mo_account vectors in
// the output batch, so each batch frees only its own vectors.
//
// Check: doubleput (the Clean of the output batches in the deferred cleanup
// frees again the vectors already freed by the Clean of allAccountInfo)
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

// MPool is a memory pool with a free list per size class.
type MPool struct {
	mu   sync.Mutex
	free map[int][][]byte
}

func NewMPool() *MPool { return &MPool{free: make(map[int][][]byte)} }

func (mp *MPool) Alloc(sz int) ([]byte, error) {
	if sz < 0 {
		return nil, errors.New("invalid alloc size")
	}
	mp.mu.Lock()
	defer mp.mu.Unlock()
	if l := mp.free[sz]; len(l) > 0 {
		bs := l[len(l)-1]
		mp.free[sz] = l[:len(l)-1]
		return bs[:sz], nil
	}
	return make([]byte, sz), nil
}

func (mp *MPool) Free(bs []byte) {
	if bs == nil || cap(bs) == 0 {
		return
	}
	mp.mu.Lock()
	defer mp.mu.Unlock()
	mp.free[cap(bs)] = append(mp.free[cap(bs)], bs[:cap(bs)])
}

type Vector struct {
	data         []byte
	area         []byte
	length       int
	cantFreeData bool
	cantFreeArea bool
}

func (v *Vector) Free(mp *MPool) {
	if !v.cantFreeData {
		mp.Free(v.data)
	}
	if !v.cantFreeArea {
		mp.Free(v.area)
	}
	v.data = nil
	v.area = nil
	v.length = 0
	v.cantFreeData = false
	v.cantFreeArea = false
}

func (v *Vector) Dup(mp *MPool) (*Vector, error) {
	w := &Vector{length: v.length}
	var err error
	if w.data, err = mp.Alloc(len(v.data)); err != nil {
		return nil, err
	}
	copy(w.data, v.data)
	if len(v.area) > 0 {
		if w.area, err = mp.Alloc(len(v.area)); err != nil {
			return nil, err
		}
		copy(w.area, v.area)
	}
	return w, nil
}

// UnionOne appends the first element of w to v.
func (v *Vector) UnionOne(w *Vector, mp *MPool) error {
	const sz = 8
	data, err := mp.Alloc((v.length + 1) * sz)
	if err != nil {
		return err
	}
	copy(data, v.data)
	copy(data[v.length*sz:], w.data[:sz])
	if !v.cantFreeData {
		mp.Free(v.data)
	}
	v.data = data
	v.length++
	return nil
}

type Batch struct {
	Cnt  int64
	Vecs []*Vector
}

func NewWithSize(n int) *Batch {
	return &Batch{Cnt: 1, Vecs: make([]*Vector, n)}
}

func (bat *Batch) Clean(m *MPool) {
	if atomic.LoadInt64(&bat.Cnt) == 0 {
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
	bat.Vecs = nil
}

const (
	idxOfAccountName = 1
	idxOfCreated     = 2
	idxOfComment     = 3

	finalIdxOfAccountName = 0
	finalIdxOfCreated     = 1
	finalIdxOfComment     = 2
	finalIdxOfSize        = 3
	finalColumnCount      = 4
)

type Session struct {
	mp *MPool
}

func (ses *Session) GetMemPool() *MPool { return ses.mp }

// mergeOutputResult merges the result set from mo_account and the table status
// into the final output format
func mergeOutputResult(ses *Session, outputBatch *Batch, rsOfMoAccount *Batch, rsOfEachAccount []*Batch) error {
	outputBatch.Vecs[finalIdxOfAccountName] = rsOfMoAccount.Vecs[idxOfAccountName]
	outputBatch.Vecs[finalIdxOfCreated] = rsOfMoAccount.Vecs[idxOfCreated]
	outputBatch.Vecs[finalIdxOfSize] = &Vector{}
	outputBatch.Vecs[finalIdxOfComment] = rsOfMoAccount.Vecs[idxOfComment]

	var err error
	mp := ses.GetMemPool()
	for _, bat := range rsOfEachAccount {
		err = outputBatch.Vecs[finalIdxOfSize].UnionOne(bat.Vecs[0], mp)
		if err != nil {
			return err
		}
	}
	return nil
}

func doShowAccounts(ses *Session, allAccountInfo []*Batch, accountIds [][]int32, getTableStats func(int32) (*Batch, error)) (err error) {
	var eachAccountInfo []*Batch
	var tempBatch *Batch
	var outputBatches []*Batch

	mp := ses.GetMemPool()

	defer func() {
		for _, b := range allAccountInfo {
			if b == nil {
				continue
			}
			b.Clean(mp)
		}
		for _, b := range outputBatches {
			if b == nil {
				continue
			}
			b.Clean(mp) // want `doubleput`
		}
		for _, b := range eachAccountInfo {
			if b == nil {
				continue
			}
			b.Clean(mp)
		}
		if tempBatch != nil {
			tempBatch.Clean(mp)
		}
	}()

	outputBatches = make([]*Batch, len(allAccountInfo))
	for i, ids := range accountIds {
		for _, id := range ids {
			if tempBatch, err = getTableStats(id); err != nil {
				return err
			}
			eachAccountInfo = append(eachAccountInfo, tempBatch)
		}

		// merge result set from mo_account and table stats from each account
		outputBatches[i] = NewWithSize(finalColumnCount)
		if err = mergeOutputResult(ses, outputBatches[i], allAccountInfo[i], eachAccountInfo); err != nil {
			return err
		}

		for _, b := range eachAccountInfo {
			b.Clean(mp)
		}
		eachAccountInfo = nil
	}
	return nil
}
