package nonpointer

import "sync"

// A generic wrapper converts its T to an interface for sync.Pool.
type typedPool[T any] struct{ p sync.Pool }

func (p *typedPool[T]) Get() T  { return p.p.Get().(T) } // want Get:`pool:get`
func (p *typedPool[T]) Put(v T) { p.p.Put(v) }           // want Put:`pool:put\(1\)`

var scratch = &typedPool[[]byte]{p: sync.Pool{New: func() any { return make([]byte, 0, 64) }}}

func useScratch() {
	b := scratch.Get()
	b = append(b, 'x')
	scratch.Put(b[:0]) // want `non-pointer value of type \[\]byte put into a sync.Pool through the generic Put`
}

var scratchPtr = &typedPool[*[]byte]{p: sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}}

func useScratchPtr() {
	b := scratchPtr.Get()
	*b = append((*b)[:0], 'x')
	scratchPtr.Put(b)
}
