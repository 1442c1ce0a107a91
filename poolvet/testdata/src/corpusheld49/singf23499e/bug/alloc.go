// Source: https://github.com/SagerNet/sing/commit/f23499eaea74cdc76686a6b6b2401de043e6138e
// ("Pool allocate arrays instead of slices", inspired by
// https://go-review.googlesource.com/c/net/+/539915).
//
// Bug: sing's common/buf allocator (derived from xtaci/smux's alloc.go) keeps
// 17 size-classed sync.Pools (1B .. 64K) whose New returns make([]byte, n),
// and Put stores the []byte slice itself in the pool. A slice is not a
// pointer, so every Put boxes the slice header into an interface and
// allocates; the code even carried `//lint:ignore SA6002 ignore temporarily`
// over the Put. Every Buffer.Release on sing's hot copy paths paid that
// allocation.
//
// Fix: the pools hold pointers to fixed-size arrays (new([1 << n]byte)); Get
// type-asserts the array pointer for the size class and slices it, and Put
// converts the slice back to an array pointer ((*[1 << n]byte)(buf)) before
// putting it.
//
// Check: nonpointer (at alloc.buffers[bits].Put(buf) in defaultAllocator.Put:
// a []byte is put into a sync.Pool)
package bug

// Inspired by https://github.com/xtaci/smux/blob/master/alloc.go

import (
	"errors"
	"math/bits"
	"sync"
	"sync/atomic"
)

var DefaultAllocator = newDefaultAllocer()

type Allocator interface {
	Get(size int) []byte
	Put(buf []byte) error
}

// defaultAllocator for incoming frames, optimized to prevent overwriting after zeroing
type defaultAllocator struct {
	buffers []sync.Pool
}

// NewAllocator initiates a []byte allocator for frames less than 65536 bytes,
// the waste(memory fragmentation) of space allocation is guaranteed to be
// no more than 50%.
func newDefaultAllocer() Allocator {
	alloc := new(defaultAllocator)
	alloc.buffers = make([]sync.Pool, 17) // 1B -> 64K
	for k := range alloc.buffers {
		i := k
		alloc.buffers[k].New = func() any {
			return make([]byte, 1<<uint32(i))
		}
	}
	return alloc
}

// Get a []byte from pool with most appropriate cap
func (alloc *defaultAllocator) Get(size int) []byte {
	if size <= 0 || size > 65536 {
		return nil
	}

	bits := msb(size)
	if size == 1<<bits {
		return alloc.buffers[bits].Get().([]byte)[:size]
	}

	return alloc.buffers[bits+1].Get().([]byte)[:size]
}

// Put returns a []byte to pool for future use,
// which the cap must be exactly 2^n
func (alloc *defaultAllocator) Put(buf []byte) error {
	bits := msb(cap(buf))
	if cap(buf) == 0 || cap(buf) > 65536 || cap(buf) != 1<<bits {
		return errors.New("allocator Put() incorrect buffer size")
	}

	//nolint
	//lint:ignore SA6002 ignore temporarily
	alloc.buffers[bits].Put(buf) // want `nonpointer`
	return nil
}

// Buffer is the pooled buffer of sing's common/buf (trimmed).
type Buffer struct {
	data    []byte
	start   int
	end     int
	refs    int32
	managed bool
	closed  bool
}

const (
	BufferSize    = 32 * 1024
	UDPBufferSize = 16 * 1024
)

func New() *Buffer {
	return &Buffer{
		data:    Get(BufferSize),
		managed: true,
	}
}

func NewSize(size int) *Buffer {
	if size == 0 {
		return &Buffer{}
	} else if size > 65535 {
		return &Buffer{
			data: make([]byte, size),
		}
	}
	return &Buffer{
		data:    Get(size),
		managed: true,
	}
}

func (b *Buffer) Release() {
	if b == nil || b.closed || !b.managed {
		return
	}
	if atomic.LoadInt32(&b.refs) > 0 {
		return
	}
	if err := Put(b.data); err != nil {
		panic(err)
	}
	*b = Buffer{closed: true}
}

func Get(size int) []byte {
	if size == 0 {
		return nil
	}
	return DefaultAllocator.Get(size)
}

func Put(buf []byte) error {
	return DefaultAllocator.Put(buf)
}

// msb return the pos of most significant bit
func msb(size int) uint16 {
	return uint16(bits.Len32(uint32(size)) - 1)
}
