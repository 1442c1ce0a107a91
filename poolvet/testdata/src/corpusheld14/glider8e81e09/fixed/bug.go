// Package fixed is the fix of the nadoo/glider buffer pool in commit 8e81e09
// (https://github.com/nadoo/glider/commit/8e81e09a8f79198a832a4eb53e58b7b9a746e129;
// pool code quoted in https://github.com/nadoo/glider/issues/175): each
// size-class pool holds a pointer to the first byte of its buffer
// (unsafe.SliceData), which fits in an interface without allocating, and
// GetBuffer rebuilds the slice of the class size with unsafe.Slice.
package fixed

import (
	"encoding/binary"
	"io"
	"math/bits"
	"sync"
	"unsafe"
)

const (
	// number of pools.
	num     = 17
	maxsize = 1 << (num - 1)
)

var (
	sizes [num]int
	pools [num]sync.Pool
)

func init() {
	for i := 0; i < num; i++ {
		size := 1 << i
		sizes[i] = size
		pools[i].New = func() any {
			buf := make([]byte, size)
			return unsafe.SliceData(buf)
		}
	}
}

// GetBuffer gets a buffer of the smallest class that holds size bytes; sizes
// out of [1, maxsize] are allocated directly.
func GetBuffer(size int) []byte {
	if size >= 1 && size <= maxsize {
		i := bits.Len32(uint32(size - 1))
		if p := pools[i].Get().(*byte); p != nil {
			return unsafe.Slice(p, 1<<i)[:size]
		}
	}
	return make([]byte, size)
}

// PutBuffer returns a buffer to the pool of its class; buffers whose
// capacity is not a class size are dropped.
func PutBuffer(buf []byte) {
	if size := cap(buf); size >= 1 && size <= maxsize {
		i := bits.Len32(uint32(size - 1))
		if sizes[i] == size {
			pools[i].Put(unsafe.SliceData(buf))
		}
	}
}

// ReadMsg reads one length-prefixed message (as the DNS-over-TCP client
// does) and hands it to fn before the buffer goes back.
func ReadMsg(r io.Reader, fn func([]byte) error) error {
	lenBuf := GetBuffer(2)
	defer PutBuffer(lenBuf)
	if _, err := io.ReadFull(r, lenBuf); err != nil {
		return err
	}
	msg := GetBuffer(int(binary.BigEndian.Uint16(lenBuf)))
	defer PutBuffer(msg)
	if _, err := io.ReadFull(r, msg); err != nil {
		return err
	}
	return fn(msg)
}
