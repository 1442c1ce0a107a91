// Package fixed is the repaired twin of uber-go/zap#1484 (https://github.com/uber-go/zap/pull/1484): put drops buffers whose capacity grew past a limit instead of keeping them in the pool.
package fixed

import "sync"

const maxPooledCap = 64 << 10

// Buffer is a growable byte buffer handed out by a Pool.
type Buffer struct {
	bs   []byte
	pool Pool
}

// AppendString appends s to the buffer.
func (b *Buffer) AppendString(s string) { b.bs = append(b.bs, s...) }

// Bytes returns the buffer's contents.
func (b *Buffer) Bytes() []byte { return b.bs }

// Reset empties the buffer.
func (b *Buffer) Reset() { b.bs = b.bs[:0] }

// Free returns the buffer to its pool; it must not be used afterwards.
func (b *Buffer) Free() { b.pool.put(b) }

// Pool is a typed wrapper around sync.Pool.
type Pool struct {
	p *sync.Pool
}

// NewPool makes a pool of 1 KiB buffers.
func NewPool() Pool {
	return Pool{p: &sync.Pool{New: func() any {
		return &Buffer{bs: make([]byte, 0, 1024)}
	}}}
}

// Get returns an empty buffer.
func (p Pool) Get() *Buffer {
	buf := p.p.Get().(*Buffer)
	buf.Reset()
	buf.pool = p
	return buf
}

func (p Pool) put(buf *Buffer) {
	if cap(buf.bs) > maxPooledCap {
		return
	}
	buf.Reset()
	p.p.Put(buf)
}
