// Package fixed is go-bond/bond#145 after the fix: the pre-allocated items
// live only in the free list.
package fixed

import "sync"

type SyncPool[T any] interface {
	Get() T
	Put(T)
}

type syncPool[T any] struct {
	sync.Pool
}

func (s *syncPool[T]) Get() T {
	return s.Pool.Get().(T)
}

func (s *syncPool[T]) Put(t T) {
	s.Pool.Put(t)
}

// preAllocatedSyncPool serves Get from a pre-filled free list first and falls
// back to the sync.Pool.
type preAllocatedSyncPool[T any] struct {
	*syncPool[T]
	preAllocItems     []T
	preAllocItemsSize int
	mu                sync.Mutex
}

func NewPreAllocatedSyncPool[T any](newFunc func() any, size int) SyncPool[T] {
	syncPool := &syncPool[T]{
		Pool: sync.Pool{New: newFunc},
	}

	preAllocItems := make([]T, 0, size)
	for i := 0; i < size; i++ {
		preAllocItems = append(preAllocItems, syncPool.Get())
	}

	return &preAllocatedSyncPool[T]{
		syncPool:          syncPool,
		preAllocItems:     preAllocItems,
		preAllocItemsSize: size,
	}
}

func (s *preAllocatedSyncPool[T]) Get() T {
	s.mu.Lock()
	if n := len(s.preAllocItems); n > 0 {
		item := s.preAllocItems[n-1]
		s.preAllocItems = s.preAllocItems[:n-1]
		s.mu.Unlock()
		return item
	}
	s.mu.Unlock()
	return s.syncPool.Get()
}

func (s *preAllocatedSyncPool[T]) Put(t T) {
	s.mu.Lock()
	if len(s.preAllocItems) < s.preAllocItemsSize {
		s.preAllocItems = append(s.preAllocItems, t)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.syncPool.Put(t)
}

// keyBuffer is what the database pools: a pointer to a key scratch slice.
type keyBuffer struct {
	b []byte
}

var keyBufferPool = NewPreAllocatedSyncPool[*keyBuffer](func() any {
	return &keyBuffer{b: make([]byte, 0, 512)}
}, 32)

// EncodeKey builds a key in a pooled scratch buffer and copies it out.
func EncodeKey(parts ...[]byte) []byte {
	kb := keyBufferPool.Get()
	kb.b = kb.b[:0]
	for _, p := range parts {
		if len(kb.b)+len(p) > cap(kb.b) {
			break
		}
		kb.b = append(kb.b, p...)
	}
	out := append([]byte(nil), kb.b...)
	kb.b = kb.b[:0]
	keyBufferPool.Put(kb)
	return out
}
