package unbounded

import "sync"

// A Put wrapper that puts only buffers of exactly the pool's block size
// (nats-io/nats-server's freeBlkBuffer): what it puts is bounded, whatever
// the buffers its callers make for larger blocks.

const exactBlockSize = 8 * 1024

var exactBlockPool = sync.Pool{New: func() any {
	b := make([]byte, 0, exactBlockSize)
	return &b
}}

func newExactBlock(sz int) []byte {
	if sz > exactBlockSize {
		return make([]byte, 0, sz)
	}
	bp := exactBlockPool.Get().(*[]byte)
	return (*bp)[:0]
}

func freeExactBlock(buf []byte) {
	if cap(buf) != exactBlockSize {
		return
	}
	buf = buf[:0]
	exactBlockPool.Put(&buf)
}

type exactCache struct{ buf []byte }

func (c *exactCache) load(raw []byte) {
	buf := newExactBlock(len(raw))
	c.buf = append(buf, raw...)
}

func (c *exactCache) expire() {
	buf := c.buf
	c.buf = nil
	freeExactBlock(buf)
}
