// Package fixed is SagerNet/sing#53 after the fix: the pools hold pointers
// to fixed-size arrays, so neither New, Get nor Put boxes a slice header.
package fixed

import "sync"

const (
	smallSize = 2048
	largeSize = 65536
)

var (
	smallPool = sync.Pool{New: func() any { return new([smallSize]byte) }}
	largePool = sync.Pool{New: func() any { return new([largeSize]byte) }}
)

// Get returns a buffer of length size, from a pool when a class fits.
func Get(size int) []byte {
	switch {
	case size <= smallSize:
		return smallPool.Get().(*[smallSize]byte)[:size]
	case size <= largeSize:
		return largePool.Get().(*[largeSize]byte)[:size]
	}
	return make([]byte, size)
}

// Put gives back a buffer obtained from Get; others are dropped.
func Put(buf []byte) {
	switch cap(buf) {
	case smallSize:
		smallPool.Put((*[smallSize]byte)(buf[:smallSize]))
	case largeSize:
		largePool.Put((*[largeSize]byte)(buf[:largeSize]))
	}
}
