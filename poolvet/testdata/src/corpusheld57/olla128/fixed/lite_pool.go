package fixed

import (
	"fmt"
	"sync"
)

type Resettable interface {
	Reset()
}

// Pool is olla's pkg/pool "lite pool": a typed wrapper around sync.Pool
// that resets Resettable values on Put.
type Pool[T any] struct {
	pool sync.Pool
	new  func() T
}

func NewLitePool[T any](newFn func() T) (*Pool[T], error) {
	if newFn == nil {
		return nil, fmt.Errorf("litepool: constructor must not be nil")
	}
	test := newFn()
	if any(test) == nil {
		return nil, fmt.Errorf("litepool: constructor returned nil")
	}

	return &Pool[T]{
		pool: sync.Pool{
			New: func() any {
				v := newFn()
				if any(v) == nil {
					panic("litepool: constructor returned nil during runtime")
				}
				return v
			},
		},
		new: newFn,
	}, nil
}

func (p *Pool[T]) Get() T {
	return p.pool.Get().(T)
}

func (p *Pool[T]) Put(v T) {
	if r, ok := any(v).(Resettable); ok {
		r.Reset()
	}
	p.pool.Put(v)
}
