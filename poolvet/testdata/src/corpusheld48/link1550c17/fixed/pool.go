// Source: https://github.com/funny/link/pull/29 (commit
// 1550c1770e74115bd599d1193d6d9236af196e23, "fix a few bugs related to
// mempool & buffer", pool.go and buffer.go).
// Not from the container/image-tooling domain: that domain ran dry for this
// writer, so this is a general Go project (the funny/link network library).
//
// Bug: MemPool is the project's own free list of *mem byte buffers (one
// lock-free stack per 1K size class). Free pushes a mem back as it is, with
// the length (and bytes) its last user left in m.Data, and Alloc(size,
// capacity) hands a popped mem out unchanged, ignoring size. NewPoolBuffer(0,
// 1024, pool) in Broadcast therefore starts with the previous user's data
// already in the buffer, and the encoded message is appended after it. (The
// same commit also adds a missing return in Buffer.grows after switching to a
// larger pooled mem.)
//
// Fix: Alloc resets the popped mem's length to the requested size
// (m.Data = m.Data[:size]) before returning it.
//
// Check: noreset (Free puts the mem back still holding its last user's length
// and contents, and Alloc does not reset it on the way out)
package fixed

import (
	"sync/atomic"
	"unsafe"
)

type MemPool struct {
	classes []*memClass
	min     int
	max     int
	off     int
}

func NewMemPool(total /* M */, min /* K */, max /* K */ int) *MemPool {
	total *= 1024 * 1024
	num := max - min + 1
	each := total / num
	classes := make([]*memClass, num)

	for i, j := min, 0; i <= max; i, j = i+1, j+1 {
		size := i * 1024
		items := each / size
		c := &memClass{maxlen: int32(items)}
		for k := 0; k < items; k++ {
			c.Push(&mem{Data: make([]byte, size)})
		}
		classes[j] = c
	}

	min *= 1024
	max *= 1024
	return &MemPool{classes, min, max, min - 1023}
}

func (pool *MemPool) Alloc(size, capacity int) *mem {
	if capacity <= pool.max {
		if capacity < pool.min {
			capacity = pool.min
		}
		m := pool.classes[(capacity-pool.off)/1024].Pop()
		if m != nil {
			// reset its length to given size
			m.Data = m.Data[:size]
			return m
		}
	}
	return &mem{Data: make([]byte, size, capacity)}
}

func (pool *MemPool) Free(m *mem) {
	if cap(m.Data) >= pool.min && cap(m.Data) <= pool.max {
		pool.classes[(cap(m.Data)-pool.off)/1024].Push(m)
	}
}

type memClass struct {
	head   unsafe.Pointer
	length int32
	maxlen int32
}

type mem struct {
	Data []byte
	pool *MemPool
	next unsafe.Pointer
}

func (class *memClass) Push(item *mem) {
	if atomic.LoadInt32(&class.length) >= class.maxlen {
		return
	}
	for {
		item.next = atomic.LoadPointer(&class.head)
		if atomic.CompareAndSwapPointer(&class.head, item.next, unsafe.Pointer(item)) {
			atomic.AddInt32(&class.length, 1)
			break
		}
	}
}

func (class *memClass) Pop() *mem {
	var ptr unsafe.Pointer
	for {
		ptr = atomic.LoadPointer(&class.head)
		if ptr == nil {
			break
		}
		if atomic.CompareAndSwapPointer(&class.head, ptr, ((*mem)(ptr)).next) {
			atomic.AddInt32(&class.length, -1)
			break
		}
	}
	return (*mem)(ptr)
}
