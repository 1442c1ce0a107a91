// Package bug is the fixed twin of panjf2000/gnet#648 (https://github.com/panjf2000/gnet/issues/648),
// following PR #649: Next copies the head segment into the event loop's cache
// before returning, so the caller never holds memory of a ring buffer that the
// deferred Discard may hand back to the pool.
// Check: useafterput (none expected here).
package bug

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

var errIsEmpty = errors.New("ring-buffer is empty")

// ringBuffer is a circular byte buffer.
type ringBuffer struct {
	buf     []byte
	size    int
	r, w    int
	isEmpty bool
}

func newRingBuffer(size int) *ringBuffer {
	return &ringBuffer{buf: make([]byte, size), size: size, isEmpty: true}
}

func (rb *ringBuffer) Buffered() int {
	if rb.isEmpty {
		return 0
	}
	if rb.w > rb.r {
		return rb.w - rb.r
	}
	return rb.size - rb.r + rb.w
}

func (rb *ringBuffer) IsEmpty() bool { return rb.isEmpty }

// Peek returns the next n bytes without advancing the read pointer.
func (rb *ringBuffer) Peek(n int) (head, tail []byte) {
	if rb.isEmpty || n <= 0 {
		return
	}
	if rb.w > rb.r {
		m := rb.w - rb.r
		if m > n {
			m = n
		}
		head = rb.buf[rb.r : rb.r+m]
		return
	}
	m := rb.size - rb.r + rb.w
	if m > n {
		m = n
	}
	if rb.r+m <= rb.size {
		head = rb.buf[rb.r : rb.r+m]
	} else {
		head = rb.buf[rb.r:]
		tail = rb.buf[:m-(rb.size-rb.r)]
	}
	return
}

// Discard skips the next n bytes.
func (rb *ringBuffer) Discard(n int) (int, error) {
	if rb.isEmpty {
		return 0, errIsEmpty
	}
	if b := rb.Buffered(); n >= b {
		rb.Reset()
		return b, nil
	}
	rb.r = (rb.r + n) % rb.size
	return n, nil
}

func (rb *ringBuffer) Write(p []byte) (int, error) {
	for _, c := range p {
		if !rb.isEmpty && rb.r == rb.w {
			return 0, io.ErrShortWrite
		}
		rb.buf[rb.w] = c
		rb.w = (rb.w + 1) % rb.size
		rb.isEmpty = false
	}
	return len(p), nil
}

func (rb *ringBuffer) Reset() {
	rb.r, rb.w = 0, 0
	rb.isEmpty = true
}

const (
	defaultRingSize = 1 << 10
	maxRingSize     = 1 << 20
)

// ringPool recycles ring buffers across connections.
type ringPool struct {
	pool sync.Pool
}

var rbPool ringPool

func (p *ringPool) Get() *ringBuffer {
	if v := p.pool.Get(); v != nil {
		return v.(*ringBuffer)
	}
	return newRingBuffer(defaultRingSize)
}

func (p *ringPool) Put(rb *ringBuffer) {
	if rb.size > maxRingSize {
		return
	}
	rb.Reset()
	p.pool.Put(rb)
}

// elasticRingBuffer borrows a ring buffer only while it holds data.
type elasticRingBuffer struct {
	rb *ringBuffer
}

func (b *elasticRingBuffer) instance() *ringBuffer {
	if b.rb == nil {
		b.rb = rbPool.Get()
	}
	return b.rb
}

func (b *elasticRingBuffer) done() {
	if b.rb != nil && b.rb.IsEmpty() {
		rbPool.Put(b.rb)
		b.rb = nil
	}
}

func (b *elasticRingBuffer) Buffered() int {
	if b.rb == nil {
		return 0
	}
	return b.rb.Buffered()
}

func (b *elasticRingBuffer) IsEmpty() bool {
	return b.rb == nil || b.rb.IsEmpty()
}

func (b *elasticRingBuffer) Peek(n int) (head, tail []byte) {
	if b.rb == nil {
		return nil, nil
	}
	return b.rb.Peek(n)
}

func (b *elasticRingBuffer) Discard(n int) (int, error) {
	if b.rb == nil {
		return 0, errIsEmpty
	}
	defer b.done()
	return b.rb.Discard(n)
}

func (b *elasticRingBuffer) Write(p []byte) (int, error) {
	return b.instance().Write(p)
}

type eventloop struct {
	cache bytes.Buffer
}

type conn struct {
	loop          *eventloop
	buffer        []byte // data from the last read, not yet consumed
	inboundBuffer elasticRingBuffer
}

// Next returns the next n bytes and advances past them.
func (c *conn) Next(n int) (buf []byte, err error) {
	inBufferLen := c.inboundBuffer.Buffered()
	if totalLen := inBufferLen + len(c.buffer); n > totalLen {
		return nil, io.ErrShortBuffer
	} else if n <= 0 {
		n = totalLen
	}
	if c.inboundBuffer.IsEmpty() {
		buf = c.buffer[:n]
		c.buffer = c.buffer[n:]
		return
	}
	head, tail := c.inboundBuffer.Peek(n)
	defer c.inboundBuffer.Discard(n) //nolint:errcheck
	c.loop.cache.Reset()
	c.loop.cache.Write(head)
	if len(head) >= n {
		return c.loop.cache.Bytes(), err
	}
	c.loop.cache.Write(tail)
	if inBufferLen >= n {
		return c.loop.cache.Bytes(), err
	}

	remaining := n - inBufferLen
	c.loop.cache.Write(c.buffer[:remaining])
	c.buffer = c.buffer[remaining:]
	return c.loop.cache.Bytes(), err
}
