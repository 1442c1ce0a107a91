// Package fixed is the fixed twin of arthurkiller/rollingwriter#46
// (https://github.com/arthurkiller/rollingwriter/issues/46): the
// asynchronous writer takes ownership of a copy of the bytes before it
// queues them, so the caller may free its pooled buffer when Write returns.
package fixed

import (
	"io"
	"sync"
)

const maxBufSize = 64 << 10

type Buffer struct {
	bs   []byte
	pool *sync.Pool
}

func (b *Buffer) AppendString(s string) { b.bs = append(b.bs, s...) }
func (b *Buffer) AppendByte(c byte)     { b.bs = append(b.bs, c) }
func (b *Buffer) Bytes() []byte         { return b.bs }

// Free returns the buffer to its pool; oversized buffers are dropped.
func (b *Buffer) Free() {
	if cap(b.bs) > maxBufSize {
		return
	}
	b.bs = b.bs[:0]
	b.pool.Put(b)
}

var bufPool = &sync.Pool{}

func init() {
	bufPool.New = func() any { return &Buffer{bs: make([]byte, 0, 1024), pool: bufPool} }
}

func getBuffer() *Buffer {
	b := bufPool.Get().(*Buffer)
	b.bs = b.bs[:0]
	return b
}

// AsynchronousWriter queues writes for a background goroutine.
type AsynchronousWriter struct {
	out   io.Writer
	queue chan []byte
}

func NewAsynchronousWriter(out io.Writer) *AsynchronousWriter {
	w := &AsynchronousWriter{out: out, queue: make(chan []byte, 1024)}
	go w.run()
	return w
}

func (w *AsynchronousWriter) run() {
	for b := range w.queue {
		w.out.Write(b)
	}
}

// Write queues a copy of b.
func (w *AsynchronousWriter) Write(b []byte) (int, error) {
	p := make([]byte, len(b))
	copy(p, b)
	w.queue <- p
	return len(b), nil
}

type ioCore struct {
	out *AsynchronousWriter
}

func (c *ioCore) Write(level, msg string) error {
	buf := getBuffer()
	buf.AppendString(level)
	buf.AppendByte(' ')
	buf.AppendString(msg)
	buf.AppendByte('\n')
	_, err := c.out.Write(buf.Bytes())
	buf.Free()
	return err
}
