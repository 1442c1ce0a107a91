// Package bug reproduces one of the two faults fixed by go-bond/bond#145
// (https://github.com/go-bond/bond/pull/145, "sync.Pool contains dirty buffer
// and prevent that happening again"): NewPreAllocatedSyncPool took `size`
// items from its sync.Pool, kept them in the pre-allocated free list, and
// also put every one of them back into the sync.Pool. Each item was then in
// the pool twice: a Get from the free list and a Get from the sync.Pool could
// hand the same buffer to two users. The fix stops putting them back.
//
// Check: useafterput (the items are put into the sync.Pool and still used
// afterwards: the constructor returns a pool that holds them in its free
// list; the report is at that return). In effect each item is returned to
// the pool twice, but only one of the two is a Put call.
package bug

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
	// Also seed the sync.Pool with the same items.
	for _, item := range preAllocItems {
		syncPool.Put(item)
	}

	return &preAllocatedSyncPool[T]{ // want `useafterput`
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
