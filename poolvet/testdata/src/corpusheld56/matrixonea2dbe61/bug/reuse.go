// Source: https://github.com/matrixorigin/matrixone/commit/a2dbe612566def8b0f722d61a7b47aa588cb6b30
// ("fix a maybe double free")
//
// AnalyzeInfo objects come from matrixone's generic reuse pool
// (pkg/common/reuse, a sync.Pool wrapper). On a remote CN the pipeline
// handler allocates one AnalyzeInfo per analysed node into
// proc.Base.AnalInfos and stores the same slice in c.anal.analInfos. When
// ParallelRun failed, handlePipelineMessage freed every AnalyzeInfo of
// proc.Base.AnalInfos ("situation 3"), but the deferred runCompile.clear()
// then released the analyze module, whose release frees every element of
// c.anal.analInfos again ("situation 1"): each AnalyzeInfo went back into
// the pool twice. (On success the same infos are handed back through
// receiver.finalAnalysisInfo and freed after the transfer, "situation 2",
// so the deferred release freed them a second time there as well.)
// Fix: after the success/error branches, the handler sets
// runCompile.proc.Base.AnalInfos and runCompile.anal.analInfos to nil.
// The reuse package is inlined here, so reuse.Free[T] is spelled Free[T].
//
// Check: doubleput (at the deferred runCompile.clear() in
// handlePipelineMessage: anaylze.release frees the AnalyzeInfos that the
// error path already freed)
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
