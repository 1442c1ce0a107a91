// Source: https://github.com/matrixorigin/matrixone/commit/863429fe6fd09fc2fe7223fecb395727fd57406c
// ("Fix the proble of slice copy in sync.pool")
//
// Mheap kept a sync.Pool of selection vectors ([]int64) for the SQL
// operators (GetSels/PutSels). New returned a bare []int64 and PutSels put
// the slice value itself into the pool, so every Put copied the slice
// header into an interface and allocated, defeating the pool.
// Fix: the pool stores *[]int64 (New returns &sels, PutSels puts &sels,
// GetSels asserts *[]int64 and dereferences).
//
// Check: nonpointer (at m.pool.Put(sels) in PutSels: a slice value, not a
// pointer, is put into the sync.Pool)
package fixed

import (
	"sync"
	"sync/atomic"
)

// ---- pkg/vm/mmu/guest ----

type Mmu struct {
	size  int64
	limit int64
}

func (m *Mmu) Size() int64 { return atomic.LoadInt64(&m.size) }

func (m *Mmu) Free(size int64) { atomic.AddInt64(&m.size, -size) }

func (m *Mmu) Alloc(size int64) error {
	atomic.AddInt64(&m.size, size)
	return nil
}

// ---- pkg/vm/mheap ----

type Mheap struct {
	Gm   *Mmu
	pool *sync.Pool
}

func New(gm *Mmu) *Mheap {
	return &Mheap{
		Gm: gm,
		pool: &sync.Pool{
			New: func() any {
				sels := make([]int64, 0, 16)
				return &sels
			},
		},
	}
}

func (m *Mheap) Size() int64 {
	return m.Gm.Size()
}

func (m *Mheap) Free(data []byte) {
	m.Gm.Free(int64(cap(data)))
}

func (m *Mheap) Alloc(size int64) ([]byte, error) {
	data := make([]byte, size)
	if err := m.Gm.Alloc(int64(cap(data))); err != nil {
		return nil, err
	}
	return data[:size], nil
}

func (m *Mheap) PutSels(sels []int64) {
	m.pool.Put(&sels)
}

func (m *Mheap) GetSels() []int64 {
	sels := m.pool.Get().(*[]int64)
	return (*sels)[:0]
}
