// Package fixed is the twin of ../bug for kubernetes/kubernetes#141299
// (https://github.com/kubernetes/kubernetes/pull/141299): PutAllocator
// returns an allocator to the pool only while its buffer stays under the
// bound; larger ones are left to the GC.
package fixed

import (
	"io"
	"sync"
)

// maxPooledBufferCapacity bounds what the pool keeps.
var maxPooledBufferCapacity = 4 << 20

// Allocator hands out a reusable buffer.
type Allocator struct {
	buf []byte
}

// Allocate returns a buffer of length n, growing the kept one if needed.
func (a *Allocator) Allocate(n uint64) []byte {
	if uint64(cap(a.buf)) >= n {
		a.buf = a.buf[:n]
		return a.buf
	}
	size := max(uint64(2*cap(a.buf)), n)
	a.buf = make([]byte, size)
	a.buf = a.buf[:n]
	return a.buf
}

var AllocatorPool = sync.Pool{
	New: func() any { return &Allocator{} },
}

// PutAllocator drops allocators whose buffer grew past the bound.
func PutAllocator(a *Allocator) {
	if cap(a.buf) > maxPooledBufferCapacity {
		return
	}
	AllocatorPool.Put(a)
}

type Object interface {
	Size() int
	MarshalTo(dst []byte) (int, error)
}

// SerializeObject encodes obj into a pooled allocator and writes it out.
func SerializeObject(w io.Writer, obj Object) error {
	alloc := AllocatorPool.Get().(*Allocator)
	defer PutAllocator(alloc)
	data := alloc.Allocate(uint64(obj.Size()))
	n, err := obj.MarshalTo(data)
	if err != nil {
		return err
	}
	_, err = w.Write(data[:n])
	return err
}
