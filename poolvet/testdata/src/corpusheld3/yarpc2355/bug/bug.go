// Package bug reproduces the shape of yarpc/yarpc-go#2355
// (https://github.com/yarpc/yarpc-go/issues/2355): internal/bufferpool wraps
// each *bytes.Buffer in a Buffer that goes back to a sync.Pool on Release,
// with no limit on how big it grew. After a burst of large responses the
// pool held on to the large buffers and services ran out of memory.
//
// Check: unbounded (a wrapper struct holding a *bytes.Buffer that its Write
// method grows, released into a sync.Pool field with no size check; the
// report is at the pool's Put).
package bug

import (
	"bytes"
	"io"
	"sync"
)

// Pool is a pool of Buffers.
type Pool struct {
	pool sync.Pool
}

func (p *Pool) Get() *Buffer {
	buf, ok := p.pool.Get().(*Buffer)
	if !ok {
		return &Buffer{pool: p, buf: &bytes.Buffer{}}
	}
	buf.released = false
	return buf
}

func (p *Pool) release(buf *Buffer) {
	p.pool.Put(buf) // want `unbounded`
}

var _pool = &Pool{}

// Buffer is a poolable buffer.
type Buffer struct {
	pool     *Pool
	released bool
	buf      *bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error)         { return b.buf.Write(p) }
func (b *Buffer) ReadFrom(r io.Reader) (int64, error) { return b.buf.ReadFrom(r) }
func (b *Buffer) Bytes() []byte                       { return b.buf.Bytes() }

// Release resets the buffer and returns it to its pool.
func (b *Buffer) Release() {
	b.buf.Reset()
	b.released = true
	b.pool.release(b)
}

// Get returns a reset Buffer from the default pool.
func Get() *Buffer { return _pool.Get() }

// Put returns a Buffer to the default pool.
func Put(buf *Buffer) { buf.Release() }

// ReadBody reads a whole response body and hands it to fn.
func ReadBody(r io.Reader, fn func([]byte) error) error {
	buf := Get()
	if _, err := buf.ReadFrom(r); err != nil {
		Put(buf)
		return err
	}
	err := fn(buf.Bytes())
	Put(buf)
	return err
}
