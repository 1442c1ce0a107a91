// Source: https://github.com/dubbogo/gost/pull/19
// (commit a57121fab1a8853135df5e9a23d00043dd19b1c6, "bytes_pools with buf
// ptr"), bytes/bytes_pool.go and bytes/slice_pool.go.
//
// Bug: gxbytes.BytesPool keeps one sync.Pool per size class ("slot") and
// stores plain []byte values in them: New returns make([]byte, 0, size),
// AcquireBytes asserts .([]byte), and ReleaseBytes puts the []byte back. A
// slice is a three-word header, so every Put boxes it into a new interface
// allocation (staticcheck SA6002), which defeats the pool on the hot path.
// The deprecated SlicePool wrapper, whose API already used *[]byte, even
// dereferenced its pointer just to hand the slice value to ReleaseBytes.
//
// Fix: the slots hold *[]byte: New returns &buf, AcquireBytes/ReleaseBytes
// take and return *[]byte, and ReleaseBytes puts the pointer back; SlicePool
// passes its pointer straight through.
//
// Check: nonpointer (bp.slots[idx].Put(buf) in ReleaseBytes puts a []byte
// value into a sync.Pool)
package bug

import (
	"sync"
)

// BytesPool hold specific size []byte
type BytesPool struct {
	sizes  []int // sizes declare the cap of each slot
	slots  []sync.Pool
	length int
}

var defaultBytesPool = NewBytesPool([]int{512, 1 << 10, 4 << 10, 16 << 10, 64 << 10})

// NewBytesPool ...
func NewBytesPool(slotSize []int) *BytesPool {
	bp := &BytesPool{}
	bp.sizes = slotSize
	bp.length = len(bp.sizes)

	bp.slots = make([]sync.Pool, bp.length)
	for i, size := range bp.sizes {
		size := size
		bp.slots[i] = sync.Pool{New: func() interface{} {
			return make([]byte, 0, size)
		}}
	}
	return bp
}

// SetDefaultBytesPool change default pool options
func SetDefaultBytesPool(bp *BytesPool) {
	defaultBytesPool = bp
}

func (bp *BytesPool) findIndex(size int) int {
	for i := 0; i < bp.length; i++ {
		if bp.sizes[i] >= size {
			return i
		}
	}
	return bp.length
}

// AcquireBytes get specific make([]byte, 0, size)
func (bp *BytesPool) AcquireBytes(size int) []byte {
	idx := bp.findIndex(size)
	if idx >= bp.length {
		return make([]byte, 0, size)
	}

	return bp.slots[idx].Get().([]byte)[:size]
}

// ReleaseBytes ...
func (bp *BytesPool) ReleaseBytes(buf []byte) {
	bufCap := cap(buf)
	idx := bp.findIndex(bufCap)
	if idx >= bp.length || bp.sizes[idx] != bufCap {
		return
	}

	bp.slots[idx].Put(buf) // want `nonpointer`
}

// AcquireBytes called by defaultBytesPool
func AcquireBytes(size int) []byte { return defaultBytesPool.AcquireBytes(size) }

// ReleaseBytes called by defaultBytesPool
func ReleaseBytes(buf []byte) { defaultBytesPool.ReleaseBytes(buf) }
