// Package bug reproduces the shape of bytedance/gopkg#214 (https://github.com/bytedance/gopkg/pull/214),
// commit a37c8ca ("fix: mcache skip manage > 1gb buffer"). mcache keeps one
// sync.Pool per power-of-two size class, up to 1<<45 bytes. Malloc serves any
// capacity from its class and Free hands every power-of-two buffer back to its
// class with no upper limit, so a single multi-gigabyte request leaves a
// buffer of that size cached in the pool ("will cause high memory usage").
// The project's fix caps the cached classes at 1GB: Malloc allocates directly
// above that and Free drops such buffers.
// Check: unbounded (at the Put in Free, which has no size cap).
package bug

import (
	"math/bits"
	"sync"
)

const maxSize = 46

// index holds buffers whose cap is 1<<index
var caches [maxSize]sync.Pool

func init() {
	for i := 0; i < maxSize; i++ {
		size := 1 << i
		caches[i].New = func() interface{} {
			buf := make([]byte, 0, size)
			return &buf
		}
	}
}

func isPowerOfTwo(x int) bool {
	return x&(x-1) == 0
}

func bsr(x int) int {
	return bits.Len(uint(x)) - 1
}

// calcIndex picks the class to get from.
func calcIndex(size int) int {
	if size == 0 {
		return 0
	}
	if isPowerOfTwo(size) {
		return bsr(size)
	}
	return bsr(size) + 1
}

// Malloc returns a slice of length size and capacity at least capacity[0].
func Malloc(size int, capacity ...int) []byte {
	if len(capacity) > 1 {
		panic("too many arguments to Malloc")
	}
	c := size
	if len(capacity) > 0 && capacity[0] > size {
		c = capacity[0]
	}
	bp := caches[calcIndex(c)].Get().(*[]byte)
	return (*bp)[:size]
}

// Free should be called when buf is no longer used.
func Free(buf []byte) {
	size := cap(buf)
	if !isPowerOfTwo(size) {
		return
	}
	buf = buf[:0]
	caches[bsr(size)].Put(&buf) // want `unbounded`
}
