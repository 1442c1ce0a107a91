// Package fixed is the fix of nats-io/nats-server#7295
// (https://github.com/nats-io/nats-server/pull/7295): the large buffer is
// recycled only when no bytes arrived during the flush; otherwise it is not
// recycled and the pending tail is carried over from it.
package fixed

import (
	"errors"
	"io"
	"sync"
)

const (
	maxBufReuse            = 2 * 1024 * 1024
	defaultSmallBlockSize  = 1 * 1024 * 1024
	defaultMediumBlockSize = 4 * 1024 * 1024
	defaultLargeBlockSize  = 8 * 1024 * 1024
	maxBlockSize           = 16 * 1024 * 1024
)

var (
	blkPoolSmall = sync.Pool{New: func() any {
		b := make([]byte, 0, defaultSmallBlockSize)
		return &b
	}}
	blkPoolMedium = sync.Pool{New: func() any {
		b := make([]byte, 0, defaultMediumBlockSize)
		return &b
	}}
	blkPoolBig = sync.Pool{New: func() any {
		b := make([]byte, 0, defaultLargeBlockSize)
		return &b
	}}
)

func recycleMsgBlockBuf(buf []byte) {
	if buf == nil || cap(buf) < defaultSmallBlockSize || cap(buf) > maxBlockSize {
		return
	}
	buf = buf[:0]
	if sz := cap(buf); sz < defaultMediumBlockSize {
		blkPoolSmall.Put(&buf)
	} else if sz < defaultLargeBlockSize {
		blkPoolMedium.Put(&buf)
	} else {
		blkPoolBig.Put(&buf)
	}
}

var (
	errNoPending = errors.New("message block does not have pending data")
	errNoCache   = errors.New("no message cache")
)

type cache struct {
	buf  []byte
	off  int
	wp   int
	fseq uint64
}

type msgBlock struct {
	cache      *cache
	mfd        io.WriterAt
	llts       int64
	cexp       int64
	accessTime func() int64
}

func (mb *msgBlock) bytesPending() ([]byte, error) {
	if mb.cache == nil {
		return nil, errNoCache
	}
	if len(mb.cache.buf) <= mb.cache.wp {
		return nil, errNoPending
	}
	return mb.cache.buf[mb.cache.wp:], nil
}

// Lock should be held.
func (mb *msgBlock) flushPendingMsgsLocked() error {
	if mb.cache == nil || mb.mfd == nil {
		return nil
	}
	buf, err := mb.bytesPending()
	if err != nil {
		if err == errNoPending || err == errNoCache {
			err = nil
		}
		return err
	}

	woff := int64(mb.cache.off + mb.cache.wp)
	lob := len(buf)

	for lbb := lob; lbb > 0; lbb = len(buf) {
		n, err := mb.mfd.WriteAt(buf, woff)
		if err != nil {
			return err
		}
		woff += int64(n)
		if n != lbb {
			buf = buf[n:]
		} else {
			break
		}
	}

	// Check for additional writes while we were writing to the disk.
	moreBytes := len(mb.cache.buf) - mb.cache.wp - lob

	if ts := mb.accessTime(); ts < mb.llts || (ts-mb.llts) <= mb.cexp {
		mb.cache.wp += lob
	} else {
		if cap(mb.cache.buf) <= maxBufReuse {
			buf = mb.cache.buf[:0]
		} else if moreBytes == 0 {
			recycleMsgBlockBuf(mb.cache.buf)
			buf = nil
		} else {
			nbuf := mb.cache.buf[len(mb.cache.buf)-moreBytes:]
			if moreBytes > (len(mb.cache.buf)/4*3) && cap(nbuf) <= maxBufReuse {
				buf = nbuf
			} else {
				buf = append(buf, nbuf...)
			}
		}
		mb.cache.off = int(woff)
		mb.cache.wp = 0
		mb.cache.buf = buf
		mb.cache.fseq = 0
	}
	return nil
}
