// Package fixed is the fixed twin of the shape of nats-io/nats-server#3978
// (https://github.com/nats-io/nats-server/pull/3978, commit 4647e14b3):
// "Don't recycle buffer more than once". With encryption at rest,
// flushPendingMsgsLocked encrypted the pending bytes into a fresh block
// buffer and then recycled the pending bytes, which are a window of the
// block cache's own buffer (bytesPending returns mb.cache.buf[wp:]). When the
// cache was later dropped, the cache buffer was recycled a second time, so
// the same block memory sat in the pool twice.
//
// Check: doubleput (the same memory put through a wrapper twice on one
// path: first through an alias returned by a method, then through the field
// it aliases). The want is at the second recycle call, the line where the
// memory goes back a second time.
package fixed

import (
	"errors"
	"sync"
)

const (
	defaultSmallBlockSize  = 1 << 20
	defaultMediumBlockSize = 4 << 20
	defaultLargeBlockSize  = 8 << 20
)

var (
	blkPoolSmall  sync.Pool
	blkPoolMedium sync.Pool
	blkPoolBig    sync.Pool
)

var errNoPending = errors.New("no pending data")

func getMsgBlockBuf(sz int) []byte {
	var pb any
	switch {
	case sz <= defaultSmallBlockSize:
		pb = blkPoolSmall.Get()
	case sz <= defaultMediumBlockSize:
		pb = blkPoolMedium.Get()
	default:
		pb = blkPoolBig.Get()
	}
	if pb != nil {
		return (*(pb.(*[]byte)))[:0]
	}
	switch {
	case sz <= defaultSmallBlockSize:
		sz = defaultSmallBlockSize
	case sz <= defaultMediumBlockSize:
		sz = defaultMediumBlockSize
	default:
		sz = defaultLargeBlockSize
	}
	return make([]byte, 0, sz)
}

// recycleMsgBlockBuf puts a block buffer back into the pool of its size.
func recycleMsgBlockBuf(buf []byte) {
	if buf == nil || cap(buf) < defaultSmallBlockSize || cap(buf) > defaultLargeBlockSize {
		return
	}
	buf = buf[:0]
	switch sz := cap(buf); {
	case sz < defaultMediumBlockSize:
		blkPoolSmall.Put(&buf)
	case sz < defaultLargeBlockSize:
		blkPoolMedium.Put(&buf)
	default:
		blkPoolBig.Put(&buf)
	}
}

type cache struct {
	buf []byte
	wp  int
	off int
}

type cipher interface {
	XORKeyStream(dst, src []byte)
}

type msgBlock struct {
	cache  *cache
	bek    cipher
	keep   bool
	writes [][]byte
}

// bytesPending returns the part of the cache buffer not yet written out.
func (mb *msgBlock) bytesPending() ([]byte, error) {
	if mb.cache == nil || len(mb.cache.buf) <= mb.cache.wp {
		return nil, errNoPending
	}
	return mb.cache.buf[mb.cache.wp:], nil
}

func (mb *msgBlock) writeAt(buf []byte) int {
	mb.writes = append(mb.writes, append([]byte(nil), buf...))
	return len(buf)
}

func (mb *msgBlock) flushPendingMsgsLocked() error {
	buf, err := mb.bytesPending()
	if err != nil {
		return nil
	}
	lob := len(buf)

	if mb.bek != nil && lob > 0 {
		var dst []byte
		if lob <= defaultLargeBlockSize {
			dst = getMsgBlockBuf(lob)[:lob]
		} else {
			dst = make([]byte, lob)
		}
		mb.bek.XORKeyStream(dst, buf)
		// The pending bytes belong to the cache buffer: they are
		// recycled with it below, not here.
		buf = dst
	}

	n := mb.writeAt(buf)

	if mb.keep {
		mb.cache.wp += n
		return nil
	}
	// The cache is dropped: its buffer goes back to the pool.
	recycleMsgBlockBuf(mb.cache.buf)
	mb.cache.buf = nil
	mb.cache.off += n
	mb.cache.wp = 0
	return nil
}
