// Package fixed is the fixed twin of capnproto/go-capnp#555
// (https://github.com/capnproto/go-capnp/pull/555): the size-class pools
// store *[]byte, and the same pointer travels from Get to Put, so releasing
// a buffer no longer allocates (the PR used a pointer-storing pool library;
// this twin does the same with sync.Pool).
package fixed

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
func (p *Pool) Get(size int) *[]byte {
	for i := range p.buckets {
		capacity := minSize << i
		if capacity >= size {
			if v := p.buckets[i].Get(); v != nil {
				bp := v.(*[]byte)
				*bp = (*bp)[:size]
				return bp
			}
			b := make([]byte, size, capacity)
			return &b
		}
	}
	b := make([]byte, size)
	return &b
}

// Put zeroes the buffer and returns it to the bucket of its capacity.
// Slices that are not a bucket's size are dropped.
func (p *Pool) Put(bp *[]byte) {
	if cap(*bp) < minSize || cap(*bp) > minSize<<(nBuckets-1) {
		return
	}
	buf := (*bp)[:cap(*bp)]
	for i := range buf {
		buf[i] = 0
	}
	capacity := cap(buf)
	for i := range p.buckets {
		if minSize<<i == capacity {
			*bp = buf[:0]
			p.buckets[i].Put(bp)
			return
		}
	}
}

// WriteFramed writes seg behind a stream header, through a pooled buffer.
func WriteFramed(w io.Writer, seg []byte) error {
	bp := Default.Get(8 + len(seg))
	buf := *bp
	binary.LittleEndian.PutUint32(buf, 0)
	binary.LittleEndian.PutUint32(buf[4:], uint32(len(seg)/8))
	copy(buf[8:], seg)
	_, err := w.Write(buf)
	Default.Put(bp)
	return err
}
