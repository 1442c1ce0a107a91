// Package bug reproduces the shape of the nadoo/glider buffer pool fixed in
// commit 8e81e09 (https://github.com/nadoo/glider/commit/8e81e09a8f79198a832a4eb53e58b7b9a746e129,
// "pool: optimized the bytes buffer pool"; the pool's code is quoted in
// https://github.com/nadoo/glider/issues/175): a set of size-class
// sync.Pools held plain []byte values. Every PutBuffer boxed the slice
// header into an interface, one heap allocation per Put on the proxy's hot
// path; the commit stores a pointer to the first element instead.
//
// Check: nonpointer (a []byte put into a sync.Pool), at the Put in PutBuffer.
package bug

import (
	"encoding/binary"
	"io"
	"math/bits"
	"sync"
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
			return make([]byte, size)
		}
	}
}

// GetBuffer gets a buffer of the smallest class that holds size bytes; sizes
// out of [1, maxsize] are allocated directly.
func GetBuffer(size int) []byte {
	if size >= 1 && size <= maxsize {
		i := bits.Len32(uint32(size)) - 1
		if sizes[i] < size {
			i++
		}
		return pools[i].Get().([]byte)[:size]
	}
	return make([]byte, size)
}

// PutBuffer returns a buffer to the pool of its class; buffers whose
// capacity is not a class size are dropped.
func PutBuffer(buf []byte) {
	if size := cap(buf); size >= 1 && size <= maxsize {
		i := bits.Len32(uint32(size)) - 1
		if sizes[i] == size {
			pools[i].Put(buf) // want `nonpointer`
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
