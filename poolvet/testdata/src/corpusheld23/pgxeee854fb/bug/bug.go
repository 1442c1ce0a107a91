// Package bug reproduces the shape of jackc/pgx commit eee854fb
// (https://github.com/jackc/pgx/commit/eee854fb069bc2f83344cfaef72d5c9589c4b48c):
// the internal iobufpool is a segregated-fit array of sync.Pools, one per
// power-of-two size class. Get hands out plain []byte values and Put stores the
// slice value itself back into the class pool, so every Put boxes a fresh slice
// header into an interface (an allocation per round trip on the IO hot path).
// The fix made the pools hold *[]byte: New returns &buf, Get/Put take *[]byte.
// Check: nonpointer (the report belongs on the Put inside iobufpool's Put helper).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

const minPoolExpOf2 = 8

var pools [18]*sync.Pool

func init() {
	for i := range pools {
		bufLen := 1 << (minPoolExpOf2 + i)
		pools[i] = &sync.Pool{New: func() any { return make([]byte, bufLen) }}
	}
}

// Get returns a []byte of len size whose capacity is the size class.
func Get(size int) []byte {
	i := getPoolIdx(size)
	if i >= len(pools) {
		return make([]byte, size)
	}
	return pools[i].Get().([]byte)[:size]
}

func getPoolIdx(size int) int {
	size--
	size >>= minPoolExpOf2
	i := 0
	for size > 0 {
		size >>= 1
		i++
	}
	return i
}

// Put gives buf back to the pool of its exact size class.
func Put(buf []byte) {
	i := putPoolIdx(cap(buf))
	if i < 0 {
		return
	}
	pools[i].Put(buf) // want `nonpointer`
}

func putPoolIdx(size int) int {
	minPoolSize := 1 << minPoolExpOf2
	for i := range pools {
		if size == minPoolSize<<i {
			return i
		}
	}
	return -1
}

// Frontend stands in for the protocol writer.
type Frontend interface {
	SendCopyData(p []byte) error
}

// CopyFrom streams r to the server in CopyData messages using a pooled chunk.
func CopyFrom(fe Frontend, r io.Reader) error {
	buf := Get(65536)
	defer Put(buf)
	buf[0] = 'd'

	for {
		n, readErr := r.Read(buf[5:cap(buf)])
		if n > 0 {
			msg := buf[0 : n+5]
			binary.BigEndian.PutUint32(msg[1:], uint32(n+4))
			if err := fe.SendCopyData(msg); err != nil {
				return err
			}
		}
		if readErr == io.EOF {
			return nil
		}
		if readErr != nil {
			return readErr
		}
	}
}
