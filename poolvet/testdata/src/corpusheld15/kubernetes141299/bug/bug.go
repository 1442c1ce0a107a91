// Package bug reproduces the shape of kubernetes/kubernetes#141299
// (https://github.com/kubernetes/kubernetes/pull/141299): kube-apiserver
// encodes protobuf responses into a runtime.Allocator taken from a
// sync.Pool (runtime.AllocatorPool). Allocate grows the allocator's buffer to
// whatever size the caller asks for, and the allocator goes back to the pool
// with that buffer, so a burst of large responses leaves multi-megabyte
// buffers pinned in the pool for the life of the process. The PR drops
// allocators whose buffer grew past a configured bound instead of pooling
// them.
//
// Check: unbounded (a struct whose []byte is grown to a caller-chosen size is
// put back with no size cap)
package bug

import (
	"io"
	"sync"
)

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
	size := uint64(2*cap(a.buf)) + n
	a.buf = make([]byte, size)
	a.buf = a.buf[:n]
	return a.buf
}

var AllocatorPool = sync.Pool{
	New: func() any { return &Allocator{} },
}

type Object interface {
	Size() int
	MarshalTo(dst []byte) (int, error)
}

// SerializeObject encodes obj into a pooled allocator and writes it out.
func SerializeObject(w io.Writer, obj Object) error {
	alloc := AllocatorPool.Get().(*Allocator)
	defer AllocatorPool.Put(alloc) // want `unbounded`
	data := alloc.Allocate(uint64(obj.Size()))
	n, err := obj.MarshalTo(data)
	if err != nil {
		return err
	}
	_, err = w.Write(data[:n])
	return err
}
