// Package fixed is Allenxuxu/gev commit 873b775 after the fix: handleClose
// does its work, including returning the ring buffers, only while the
// connection is still marked connected, so a second close is a no-op.
package fixed

import (
	"errors"
	"io"
	"log"
	"sync"
	"sync/atomic"
)

const maxRingSize = 64 << 10

type RingBuffer struct {
	buf []byte
}

func (r *RingBuffer) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	return len(p), nil
}

func (r *RingBuffer) Length() int { return len(r.buf) }

func (r *RingBuffer) Retrieve(n int) { r.buf = r.buf[n:] }

func (r *RingBuffer) Reset() { r.buf = r.buf[:0] }

var ringPool = sync.Pool{
	New: func() any { return &RingBuffer{buf: make([]byte, 0, 1024)} },
}

func getRing() *RingBuffer { return ringPool.Get().(*RingBuffer) }

func putRing(r *RingBuffer) {
	if cap(r.buf) > maxRingSize {
		return
	}
	r.Reset()
	ringPool.Put(r)
}

type EventLoop struct {
	pending []func()
}

// QueueInLoop runs f on the loop goroutine later.
func (l *EventLoop) QueueInLoop(f func()) { l.pending = append(l.pending, f) }

func (l *EventLoop) doPendingFunc() {
	fs := l.pending
	l.pending = nil
	for _, f := range fs {
		f()
	}
}

type Connection struct {
	sock      io.ReadWriteCloser
	connected atomic.Bool
	outBuffer *RingBuffer
	inBuffer  *RingBuffer
	loop      *EventLoop
	onClose   func(*Connection)
}

func New(sock io.ReadWriteCloser, loop *EventLoop, onClose func(*Connection)) *Connection {
	c := &Connection{
		sock:      sock,
		outBuffer: getRing(),
		inBuffer:  getRing(),
		loop:      loop,
		onClose:   onClose,
	}
	c.connected.Store(true)
	return c
}

// Send may be called from any goroutine.
func (c *Connection) Send(data []byte) error {
	if !c.connected.Load() {
		return errors.New("connection closed")
	}
	c.loop.QueueInLoop(func() {
		c.sendInLoop(data)
	})
	return nil
}

func (c *Connection) handleRead(buf []byte) {
	n, err := c.sock.Read(buf)
	if n == 0 || err != nil {
		c.handleClose()
		return
	}
	_, _ = c.inBuffer.Write(buf[:n])
}

func (c *Connection) handleClose() {
	if !c.connected.Load() {
		return
	}
	c.connected.Store(false)
	c.onClose(c)
	if err := c.sock.Close(); err != nil {
		log.Println("close:", err)
	}
	putRing(c.inBuffer)
	putRing(c.outBuffer)
}

func (c *Connection) sendInLoop(data []byte) {
	if c.outBuffer.Length() > 0 {
		_, _ = c.outBuffer.Write(data)
		return
	}
	n, err := c.sock.Write(data)
	if err != nil {
		c.handleClose()
		return
	}
	if n < len(data) {
		_, _ = c.outBuffer.Write(data[n:])
	}
}
