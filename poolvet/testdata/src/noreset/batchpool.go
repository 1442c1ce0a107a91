package noreset

import "sync"

// A two-level pool that moves batches of free objects between two
// sync.Pools: the slices it puts back hold the pooled objects themselves,
// which is the point, not a user's data (deepflow's LockFreePool).
type freeBatchPool[T any] struct {
	empty *sync.Pool
	full  *sync.Pool
}

func newFreeBatchPool[T any](alloc func() T) *freeBatchPool[T] {
	return &freeBatchPool[T]{
		empty: &sync.Pool{New: func() any { s := make([]T, 0, 64); return &s }},
		full: &sync.Pool{New: func() any {
			s := make([]T, 64)
			for i := range s {
				s[i] = alloc()
			}
			return &s
		}},
	}
}

func (p *freeBatchPool[T]) Get() T {
	batch := p.full.Get().(*[]T)
	s := *batch
	x := s[len(s)-1]
	*batch = s[:len(s)-1]
	if len(s) > 1 {
		p.full.Put(batch)
	} else {
		p.empty.Put(batch)
	}
	return x
}

func (p *freeBatchPool[T]) Put(x T) {
	batch := p.empty.Get().(*[]T)
	*batch = append(*batch, x)
	if len(*batch) < cap(*batch) {
		p.empty.Put(batch)
	} else {
		p.full.Put(batch)
	}
}

// The same pool written before generics, over any values.
type anyFreeBatchPool struct {
	empty *sync.Pool
	full  *sync.Pool
}

func (p *anyFreeBatchPool) Get() any {
	batch := p.full.Get().(*[]any)
	s := *batch
	x := s[len(s)-1]
	*batch = s[:len(s)-1]
	if len(s) > 1 {
		p.full.Put(batch)
	} else {
		p.empty.Put(batch)
	}
	return x
}

func (p *anyFreeBatchPool) Put(x any) {
	batch := p.empty.Get().(*[]any)
	*batch = append(*batch, x)
	if len(*batch) < cap(*batch) {
		p.empty.Put(batch)
	} else {
		p.full.Put(batch)
	}
}
