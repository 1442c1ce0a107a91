// Package bug reproduces the shape discussed in arthurkiller/rollingwriter#46
// (https://github.com/arthurkiller/rollingwriter/issues/46): a logging core
// encodes an entry into a pooled buffer, hands buf.Bytes() to Write and
// frees the buffer as soon as Write returns (zap's ioCore does this). An
// asynchronous writer that only queued the slice on a channel for its
// writer goroutine then wrote bytes that the next log entry had already
// overwritten; the writer has to copy before it queues.
//
// Check: useafterput (hand-off: the buffer's bytes are sent on a channel by
// a method of the package, then the buffer goes back to the pool through its
// Free method with nothing waiting for the writer goroutine; the report is
// placed at the Free call, where the Put happens for this function).
package bug

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

// Write queues b without copying it.
func (w *AsynchronousWriter) Write(b []byte) (int, error) {
	w.queue <- b
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
	buf.Free() // want `useafterput`
	return err
}
