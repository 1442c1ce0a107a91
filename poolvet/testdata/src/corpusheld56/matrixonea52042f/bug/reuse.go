// Source: https://github.com/matrixorigin/matrixone/commit/a52042f310cf8ae44a99fad129e93fe0fd9c679e
// ("fix: avoid double free in correlated apply cleanup")
//
// Compile and Scope objects come from matrixone's generic reuse pools
// (pkg/common/reuse, a sync.Pool wrapper that calls a reset function on
// Free). A correlatedApplyRunner keeps the child compile's scopes in
// r.scopes, and the same slice is stored in childCompile.scopes.
// correlatedApplyRunner.Free released r.scopes with ReleaseScopes and then
// freed the Compile with reuse.Free[Compile]; the Compile pool's reset
// function (Compile.clear) releases c.scopes again, so every Scope was put
// back into the Scope pool twice.
// Fix: Free no longer calls ReleaseScopes; it only drops its reference
// (r.scopes = nil) and lets the Compile reset release the scopes.
//
// The reuse package is inlined here, so reuse.Free[Compile] is spelled
// Free[Compile].
//
// Check: doubleput (at Free[Compile](r.compile, nil) in
// correlatedApplyRunner.Free: its reset function Compile.clear puts the
// scopes that ReleaseScopes already put back)
package bug

import (
	"fmt"
	"reflect"
	"sync"
)

// ---- pkg/common/reuse ----

// Pool is a pool of temporary objects, designed to reduce the creation of
// temporary objects to reduce GC pressure.
type Pool[T any, P ReusableObject[T]] interface {
	Alloc() P
	Free(P)
}

// ReusableObject all reusable objects must implements this interface
type ReusableObject[T any] interface {
	*T
	TypeName() string
}

// Options options to create object pool
type Options[T any, P ReusableObject[T]] struct {
	enableChecker bool
}

// DefaultOptions default options
func DefaultOptions[T any, P ReusableObject[T]]() *Options[T, P] {
	return &Options[T, P]{}
}

// WithEnableChecker enable check double free, leak free.
func (opts *Options[T, P]) WithEnableChecker() *Options[T, P] {
	opts.enableChecker = true
	return opts
}

var pools = map[reflect.Type]any{}

type syncPoolBased[T any, P ReusableObject[T]] struct {
	pool  sync.Pool
	reset func(P)
	opts  *Options[T, P]
}

func newSyncPoolBased[T any, P ReusableObject[T]](
	new func() P,
	reset func(P),
	opts *Options[T, P]) Pool[T, P] {
	return &syncPoolBased[T, P]{
		pool: sync.Pool{
			New: func() any {
				return new()
			},
		},
		reset: reset,
		opts:  opts,
	}
}

func (p *syncPoolBased[T, P]) Alloc() P {
	v := p.pool.Get().(P)
	return v
}

func (p *syncPoolBased[T, P]) Free(v P) {
	p.reset(v)
	p.pool.Put(v)
}

// CreatePool create pool instance.
func CreatePool[T any, P ReusableObject[T]](
	new func() P,
	reset func(P),
	opts *Options[T, P]) {
	if p := get[T, P](); p != nil {
		panic(fmt.Sprintf("%T pool already created", P(nil)))
	}
	pools[typeOf[T]()] = newSyncPoolBased(new, reset, opts)
}

// Alloc allocates a pooled object.
func Alloc[T any, P ReusableObject[T]](p Pool[T, P]) P {
	if p == nil {
		var v T
		p = get[T, P]()
		if p == nil {
			panic(fmt.Sprintf("%T pool not created", v))
		}
	}
	return p.Alloc()
}

// Free free a pooled object.
func Free[T any, P ReusableObject[T]](v P, p Pool[T, P]) {
	if p == nil {
		p = get[T, P]()
	}
	if p == nil {
		panic(fmt.Sprintf("%T pool not created", v))
	}
	p.Free(v)
}

func get[T any, P ReusableObject[T]]() Pool[T, P] {
	if pool, ok := pools[typeOf[T]()]; ok {
		return pool.(Pool[T, P])
	}
	return nil
}

func typeOf[T any]() reflect.Type {
	return reflect.TypeOf((*T)(nil))
}
