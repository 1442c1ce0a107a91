// Package wrap holds pool wrappers of the kinds found in real code: plain
// helpers, methods on wrapper types (zap's buffer.Buffer.Free, fmt's
// pp.free) and a generic typed wrapper (zap's internal/pool).
package wrap

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// GetBuffer is a Get wrapper that resets.
func GetBuffer() *bytes.Buffer { // want GetBuffer:`pool:get\+reset`
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// ReleaseBuffer is a Put wrapper.
func ReleaseBuffer(b *bytes.Buffer) { // want ReleaseBuffer:`pool:put\(0\)`
	if b.Cap() > 64<<10 {
		return
	}
	bufPool.Put(b)
}

// Release2 calls another wrapper: it is a wrapper too.
func Release2(b *bytes.Buffer) { // want Release2:`pool:put\(0\)`
	ReleaseBuffer(b)
}

// Buffer is a pooled buffer with its own Free method.
type Buffer struct {
	B []byte
}

var bufferPool = sync.Pool{New: func() any { return &Buffer{B: make([]byte, 0, 1024)} }}

// NewBuffer takes a Buffer from the pool.
func NewBuffer() *Buffer { // want NewBuffer:`pool:get`
	b := bufferPool.Get().(*Buffer)
	b.B = b.B[:0]
	return b
}

// Bytes returns the contents; valid until Free.
func (b *Buffer) Bytes() []byte { return b.B } // want Bytes:`pool:alias`

// Free returns b to the pool.
func (b *Buffer) Free() { // want Free:`pool:put\(0\)\+reset`
	b.B = b.B[:0]
	b.reset()
	bufferPool.Put(b)
}

func (b *Buffer) reset() { b.B = b.B[:0] }

// Pool is a typed wrapper over sync.Pool, as in zap's internal/pool.
type Pool[T any] struct {
	pool sync.Pool
}

// New returns a Pool whose New calls fn.
func New[T any](fn func() T) *Pool[T] {
	return &Pool[T]{pool: sync.Pool{New: func() any { return fn() }}}
}

// Get takes an object.
func (p *Pool[T]) Get() T { // want Get:`pool:get`
	return p.pool.Get().(T)
}

// Put returns an object.
func (p *Pool[T]) Put(x T) { // want Put:`pool:put\(1\)`
	p.pool.Put(x)
}
