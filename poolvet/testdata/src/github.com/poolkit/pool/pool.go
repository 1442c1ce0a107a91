// Package pool is a small stand-in for github.com/poolkit/pool, with the
// API that poolvet recognises.
package pool

// Pool is a typed pool.
type Pool[T any] struct {
	New     func() T
	Reset   func(T)
	Keep    func(T) bool
	MaxIdle int
	MinIdle int

	items []T
}

// Get returns an object from the pool, or New().
func (p *Pool[T]) Get() T {
	if n := len(p.items); n > 0 {
		x := p.items[n-1]
		p.items = p.items[:n-1]
		return x
	}
	var zero T
	if p.New != nil {
		return p.New()
	}
	return zero
}

// Put returns x to the pool.
func (p *Pool[T]) Put(x T) {
	if p.Keep != nil && !p.Keep(x) {
		return
	}
	if p.Reset != nil {
		p.Reset(x)
	}
	p.items = append(p.items, x)
}
