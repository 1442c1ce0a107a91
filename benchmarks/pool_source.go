package benchmarks

import "github.com/poolkit/pool"

// poolSource is the strategy under test: pool.Pool[T] with the kit's New
// and Reset, and MinIdle objects kept across GC cycles.
type poolSource[T any] struct{ p pool.Pool[T] }

func newPoolSource[T any](k kit[T], minIdle int) *poolSource[T] {
	s := &poolSource[T]{}
	s.p.New = k.new
	s.p.Reset = k.reset
	s.p.MinIdle = minIdle
	return s
}

func (s *poolSource[T]) Get() T  { return s.p.Get() }
func (s *poolSource[T]) Put(x T) { s.p.Put(x) }

// Misses reads the pool's own count of Gets that called New.
func (s *poolSource[T]) Misses() uint64 { return s.p.Stats().Misses }
