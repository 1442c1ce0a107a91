// Copyright notice of the file this replaces: go.uber.org/zap's
// internal/pool/pool.go is MIT-licensed by Uber Technologies; this version is
// poolkit's, written for the check in ../run.sh.

// Package pool provides internal pool utilities, backed by
// github.com/poolkit/pool for poolkit's compatibility check (run.sh).
package pool

import kit "github.com/poolkit/pool"

// A Pool is a typed pool of T, as zap's own, backed by kit.Pool.
type Pool[T any] struct {
	pool kit.Pool[T]
}

// New returns a new Pool for T, and will use fn to construct new Ts when the
// pool is empty.
func New[T any](fn func() T) *Pool[T] {
	return &Pool[T]{pool: kit.Pool[T]{New: fn}}
}

// Get gets a T from the pool, or creates a new one if the pool is empty.
func (p *Pool[T]) Get() T { return p.pool.Get() }

// Put returns x into the pool.
func (p *Pool[T]) Put(x T) { p.pool.Put(x) }
