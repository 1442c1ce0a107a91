// Package bug reproduces the shape of uber-go/zap#1484 (https://github.com/uber-go/zap/pull/1484): zap's buffer package wraps a sync.Pool of *Buffer, whose byte slice grows with every Append; Buffer.Free hands the buffer to the pool's put, which puts it back whatever its size. The PR points out that after a few huge log entries all pooled buffers become large and the memory is never released, and proposes dropping buffers that are too big.
//
// Check: unbounded (wrapper's put keeps *Buffer of any capacity).
package bug

import "sync"

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
	buf.Reset()
	p.p.Put(buf) // want `capacity check|unbounded`
}
