package fixed

import (
	"bytes"
	"io"
	"sync"
)

// Pool represents a buffer pool with a set of options
// (go.uber.org/yarpc/internal/bufferpool).
type Pool struct {
	pool sync.Pool
}

var _pool = &Pool{}

// Get returns a buffer from the pool.
func (p *Pool) Get() *Buffer {
	buf, ok := p.pool.Get().(*Buffer)
	if !ok {
		buf = &Buffer{pool: p, buf: &bytes.Buffer{}}
	} else {
		buf.reuse()
	}
	return buf
}

func (p *Pool) release(buf *Buffer) {
	p.pool.Put(buf)
}

// bufferpoolGet returns a new Buffer from the Buffer pool that has been reset.
func bufferpoolGet() *Buffer {
	return _pool.Get()
}

// bufferpoolPut returns a Buffer to the Buffer pool.
func bufferpoolPut(buf *Buffer) {
	buf.Release()
}

// Buffer represents a poolable buffer. It wraps an underlying
// *bytes.Buffer with lightweight detection of races.
type Buffer struct {
	pool *Pool

	version  uint
	released bool

	buf *bytes.Buffer
}

func (b *Buffer) checkUseAfterFree() {
	if b.released || b.buf == nil {
		panic("use-after-free of pooled buffer")
	}
}

func (b *Buffer) preOp() uint {
	b.checkUseAfterFree()
	b.version++
	return b.version
}

func (b *Buffer) postOp(v uint) {
	b.checkUseAfterFree()
	if v != b.version || b.released {
		panic("concurrent use of pooled buffer")
	}
	b.version++
}

// ReadFrom is the same as bytes.Buffer.ReadFrom.
func (b *Buffer) ReadFrom(r io.Reader) (int64, error) {
	version := b.preOp()
	n, err := b.buf.ReadFrom(r)
	b.postOp(version)
	return n, err
}

// Bytes returns the bytes in the underlying buffer.
// This is easy to mis-use and lead to a use-after-free that
// cannot be detected, so it is strongly recommended that this method
// is NOT used.
func (b *Buffer) Bytes() []byte {
	return b.buf.Bytes()
}

// Reset is the same as bytes.Buffer.Reset.
func (b *Buffer) Reset() {
	version := b.preOp()
	b.buf.Reset()
	b.postOp(version)
}

// Release releases the buffer back to the buffer pool.
func (b *Buffer) Release() {
	b.postOp(b.preOp())
	b.Reset()
	b.released = true
	b.pool.release(b)
}

func (b *Buffer) reuse() {
	b.released = false
}
