// Package bug reproduces the shape of SagerNet/sing#53
// (https://github.com/SagerNet/sing/pull/53): the buffer allocator keeps
// one sync.Pool per size class and stores plain []byte values in them.
// Putting a slice into a sync.Pool converts its header to an interface,
// which allocates on every Put (and New allocates the header too), so the
// pool saved the backing array but paid an allocation per round trip. The
// fix pools pointers to fixed-size arrays instead.
//
// Check: nonpointer (size-class pools of []byte; the free function puts
// the slice value back into the pool of its class).
package bug

import "sync"

const (
	smallSize = 2048
	largeSize = 65536
)

var (
	smallPool = sync.Pool{New: func() any { return make([]byte, smallSize) }}
	largePool = sync.Pool{New: func() any { return make([]byte, largeSize) }}
)

// Get returns a buffer of length size, from a pool when a class fits.
func Get(size int) []byte {
	switch {
	case size <= smallSize:
		return smallPool.Get().([]byte)[:size]
	case size <= largeSize:
		return largePool.Get().([]byte)[:size]
	}
	return make([]byte, size)
}

// Put gives back a buffer obtained from Get; others are dropped.
func Put(buf []byte) {
	switch cap(buf) {
	case smallSize:
		smallPool.Put(buf[:smallSize]) // want `nonpointer`
	case largeSize:
		largePool.Put(buf[:largeSize]) // want `nonpointer`
	}
}
