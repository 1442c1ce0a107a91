package useafterput

import "sync"

var blockBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1<<16); return &b }}

func recycleBlockBuf(b []byte) {
	if cap(b) > 1<<20 {
		return
	}
	b = b[:0]
	blockBufPool.Put(&b)
}

type blockCache struct {
	buf []byte
	wp  int
}

// The field's buffer goes back to the pool, then the field is read again
// and sliced; the slice is used two lines later. The report is at the read,
// where the stale buffer is taken (nats-io/nats-server#7295).
func (c *blockCache) flush(more int) {
	recycleBlockBuf(c.buf)
	var keep []byte
	if more > 0 {
		tail := c.buf[len(c.buf)-more:] // want `c.buf is used after it was put back into the pool`
		keep = append(keep, tail...)
	}
	c.buf, c.wp = keep, 0
}

// Silent: the tail is copied out before the Put.
func (c *blockCache) flush2(more int) {
	var keep []byte
	if more > 0 {
		keep = append(keep, c.buf[len(c.buf)-more:]...)
	}
	recycleBlockBuf(c.buf)
	c.buf, c.wp = keep, 0
}
