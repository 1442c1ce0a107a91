// Package bug is the fixed twin of bytedance/gopkg#214 (https://github.com/bytedance/gopkg/pull/214):
// only classes up to 1GB are pooled; Malloc allocates larger buffers directly
// and Free drops any buffer whose capacity is above the cap.
// Check: unbounded (none expected here).
package bug

import (
	"math/bits"
	"sync"
)

const (
	maxCachedIndex = 30 // len(caches) = maxCachedIndex+1

	// buffers above maxCachedSize are never cached
	maxCachedSize = 1 << maxCachedIndex // 1GB
)

// index holds buffers whose cap is 1<<index
var caches [maxCachedIndex + 1]sync.Pool

func init() {
	for i := 0; i <= maxCachedIndex; i++ {
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
	if c > maxCachedSize {
		return make([]byte, size, c)
	}
	bp := caches[calcIndex(c)].Get().(*[]byte)
	return (*bp)[:size]
}

// Free should be called when buf is no longer used.
func Free(buf []byte) {
	size := cap(buf)
	if size > maxCachedSize || !isPowerOfTwo(size) {
		return
	}
	buf = buf[:0]
	caches[bsr(size)].Put(&buf)
}
