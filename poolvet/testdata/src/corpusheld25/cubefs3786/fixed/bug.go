// Package bug reproduces the shape of cubefs/cubefs#3786
// (https://github.com/cubefs/cubefs/issues/3786, fixed by commit be56f5aa6
// "perf(util): store pointer of bytes in bytespool"): the blobstore bytespool
// keeps one sync.Pool per power-of-two size class. Fixed twin: the pools hold
// *[]byte, AllocPointer/FreePointer work on the pointer and Alloc/Free wrap
// them, as the project's fix did.
//
// Check: nonpointer.
package bug

import (
	"encoding/binary"
	"hash/crc32"
	"sync"
)

const (
	zeroSize   = 1 << 14 // 16 KB
	maxSizeBit = 24      // 16 MB
	maxSize    = 1 << maxSizeBit
)

var (
	debruijnPos = [...]byte{
		0, 9, 1, 10, 13, 21, 2, 29, 11, 14,
		16, 18, 22, 25, 3, 30, 8, 12, 20, 28,
		15, 17, 24, 7, 19, 27, 23, 6, 26, 5, 4, 31,
	}
	zero  = make([]byte, zeroSize)
	pools [maxSizeBit + 1]*sync.Pool
)

func init() {
	for idx := range pools {
		bits := idx
		pools[idx] = &sync.Pool{
			New: func() interface{} {
				nb := make([]byte, 1<<bits)
				return &nb
			},
		}
	}
}

// GetPool returns the pool whose slices fit size, or nil when oversized.
func GetPool(size int) *sync.Pool {
	if size < 0 || size > maxSize {
		return nil
	}
	bits := msb(size)
	idx := bits
	if size != 1<<bits {
		idx++
	}
	return pools[idx]
}

// Alloc returns a slice of length size, pooled when it can be.
func Alloc(size int) []byte {
	return *AllocPointer(size)
}

// AllocPointer returns a pointer to a slice of length size.
func AllocPointer(size int) *[]byte {
	if pool := GetPool(size); pool != nil {
		bp := pool.Get().(*[]byte)
		*bp = (*bp)[:size]
		return bp
	}
	nb := make([]byte, size)
	return &nb
}

// Free returns b to its size-class pool; odd or oversized slices are dropped.
func Free(b []byte) {
	size := cap(b)
	bits := msb(size)
	if size > maxSize || size != 1<<bits {
		return
	}
	b = b[0:size]
	pools[bits].Put(&b)
}

// FreePointer returns *bp to its size-class pool.
func FreePointer(bp *[]byte) {
	if bp == nil {
		return
	}
	size := cap(*bp)
	bits := msb(size)
	if size > maxSize || size != 1<<bits {
		return
	}
	*bp = (*bp)[:size]
	pools[bits].Put(bp)
}

// Zero clears b.
func Zero(b []byte) {
	for len(b) > 0 {
		n := copy(b, zero)
		b = b[n:]
	}
}

func msb(size int) byte {
	v := uint32(size)
	v |= v >> 1
	v |= v >> 2
	v |= v >> 4
	v |= v >> 8
	v |= v >> 16
	return debruijnPos[(v*0x07C4ACDD)>>27]
}

// SignLocation is a caller in the access service: it borrows a scratch buffer
// to lay out a location record and checksum it.
func SignLocation(clusterID, codeMode uint32, blobs []uint64) uint32 {
	bp := AllocPointer(1024)
	defer FreePointer(bp)
	buf := *bp

	binary.BigEndian.PutUint32(buf[0:], clusterID)
	binary.BigEndian.PutUint32(buf[4:], codeMode)
	n := 8
	for _, b := range blobs {
		if n+8 > len(buf) {
			break
		}
		binary.BigEndian.PutUint64(buf[n:], b)
		n += 8
	}
	return crc32.ChecksumIEEE(buf[:n])
}
