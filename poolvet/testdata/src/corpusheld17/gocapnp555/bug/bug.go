// Package bug reproduces the shape of capnproto/go-capnp#555
// (https://github.com/capnproto/go-capnp/pull/555, "bufferpool: Switch to
// zeropool"): the message buffer pool kept one sync.Pool per power-of-two
// size class and stored plain []byte values in them, so every Put boxed the
// slice header into an interface, one heap allocation per released buffer;
// the PR moved to a pool that stores pointers.
//
// Check: nonpointer (a []byte is put into a sync.Pool inside a size-class
// pool).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

const (
	minSize  = 1024
	nBuckets = 11 // 1 KiB .. 1 MiB
)

// Pool is a bucketed pool of byte slices.
type Pool struct {
	buckets [nBuckets]sync.Pool
}

// Default is the pool messages use.
var Default Pool

// Get returns a zeroed slice of length size, with a capacity rounded up to
// the bucket's size.
func (p *Pool) Get(size int) []byte {
	for i := range p.buckets {
		capacity := minSize << i
		if capacity >= size {
			if v := p.buckets[i].Get(); v != nil {
				buf := v.([]byte)
				return buf[:size]
			}
			return make([]byte, size, capacity)
		}
	}
	return make([]byte, size)
}

// Put zeroes buf and returns it to the bucket of its capacity. Slices that
// are not a bucket's size are dropped.
func (p *Pool) Put(buf []byte) {
	if cap(buf) < minSize || cap(buf) > minSize<<(nBuckets-1) {
		return
	}
	buf = buf[:cap(buf)]
	for i := range buf {
		buf[i] = 0
	}
	capacity := cap(buf)
	for i := range p.buckets {
		if minSize<<i == capacity {
			p.buckets[i].Put(buf[:0]) // want `nonpointer`
			return
		}
	}
}

// WriteFramed writes seg behind a stream header, through a pooled buffer.
func WriteFramed(w io.Writer, seg []byte) error {
	buf := Default.Get(8 + len(seg))
	binary.LittleEndian.PutUint32(buf, 0)
	binary.LittleEndian.PutUint32(buf[4:], uint32(len(seg)/8))
	copy(buf[8:], seg)
	_, err := w.Write(buf)
	Default.Put(buf)
	return err
}
