// Package bug reproduces the shape of Allenxuxu/gev commit 0542677 (https://github.com/Allenxuxu/gev/commit/054267708d3feebcf532d4bec9df334b8e30fb44,
// "Fix data race: use ringbuffer after we had put it in pool"): Connection.HandleEvent calls
// handleWrite/handleRead, which on a read/write error call handleClose; handleClose returns the
// connection's inBuffer and outBuffer to the ring-buffer pool. HandleEvent then went on to call
// IsEmpty/Reset/Length on those buffers, which may already belong to another connection. The fix makes
// handleRead/handleWrite report that the connection was closed and returns early.
// Check: useafterput (ring buffers used after handleClose put them back in the pool; report at the first
// use after handleWrite and after handleRead).
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ---- ringbuffer with a pool ----

type RingBuffer struct {
	buf  []byte
	r, w int
}

const maxPooledRing = 1 << 20

var ringPool = sync.Pool{New: func() interface{} { return &RingBuffer{buf: make([]byte, 1024)} }}

func GetFromPool() *RingBuffer { return ringPool.Get().(*RingBuffer) }

func PutInPool(r *RingBuffer) {
	if cap(r.buf) > maxPooledRing {
		return
	}
	r.Reset()
	ringPool.Put(r)
}

func (r *RingBuffer) Length() int   { return r.w - r.r }
func (r *RingBuffer) IsEmpty() bool { return r.w == r.r }
func (r *RingBuffer) Reset()        { r.r, r.w = 0, 0 }

func (r *RingBuffer) Write(p []byte) (int, error) {
	if r.w+len(p) > len(r.buf) {
		nb := make([]byte, 2*(r.w+len(p)))
		copy(nb, r.buf[r.r:r.w])
		r.w -= r.r
		r.r = 0
		r.buf = nb
	}
	n := copy(r.buf[r.w:], p)
	r.w += n
	return n, nil
}

func (r *RingBuffer) Peek() []byte { return r.buf[r.r:r.w] }
func (r *RingBuffer) Retrieve(n int) {
	r.r += n
	if r.r == r.w {
		r.Reset()
	}
}

// ---- poller / socket stand-ins ----

type Event uint32

const (
	EventRead  Event = 0x1
	EventWrite Event = 0x4
	EventErr   Event = 0x80
)

var errAgain = errors.New("resource temporarily unavailable")

type socket interface {
	Read(p []byte) (int, error)
	Write(p []byte) (int, error)
	Close() error
}

type CallBack interface {
	OnMessage(c *Connection, data []byte) []byte
	OnClose(c *Connection)
}

// ---- connection ----

type Connection struct {
	sock         socket
	connected    atomic.Bool
	inBuffer     *RingBuffer
	outBuffer    *RingBuffer
	inBufferLen  atomic.Int64
	outBufferLen atomic.Int64
	callBack     CallBack
	packetBuf    []byte
}

func New(sock socket, cb CallBack) *Connection {
	c := &Connection{
		sock:      sock,
		inBuffer:  GetFromPool(),
		outBuffer: GetFromPool(),
		callBack:  cb,
		packetBuf: make([]byte, 4096),
	}
	c.connected.Store(true)
	return c
}

func (c *Connection) HandleEvent(events Event) {
	if events&EventErr != 0 {
		c.handleClose()
		return
	}

	if !c.outBuffer.IsEmpty() {
		if events&EventWrite != 0 {
			// if return true, it means closed
			if c.handleWrite() {
				return
			}

			if c.outBuffer.IsEmpty() {
				c.outBuffer.Reset()
			}
		}
	} else if events&EventRead != 0 {
		// if return true, it means closed
		if c.handleRead() {
			return
		}

		if c.inBuffer.IsEmpty() {
			c.inBuffer.Reset()
		}
	}

	c.inBufferLen.Store(int64(c.inBuffer.Length()))
	c.outBufferLen.Store(int64(c.outBuffer.Length()))
}

func (c *Connection) handleRead() (closed bool) {
	buf := c.packetBuf
	n, err := c.sock.Read(buf)
	if n == 0 || err != nil {
		if err != errAgain {
			c.handleClose()
			closed = true
		}
		return
	}

	if c.inBuffer.IsEmpty() {
		buf = c.callBack.OnMessage(c, buf[:n])
	} else {
		_, _ = c.inBuffer.Write(buf[:n])
		buf = c.callBack.OnMessage(c, c.inBuffer.Peek())
		c.inBuffer.Retrieve(c.inBuffer.Length())
	}

	if len(buf) != 0 {
		closed = c.sendInLoop(buf)
	}
	return
}

func (c *Connection) handleWrite() (closed bool) {
	n, err := c.sock.Write(c.outBuffer.Peek())
	if err != nil {
		if err != errAgain {
			c.handleClose()
			closed = true
		}
		return
	}
	c.outBuffer.Retrieve(n)
	return
}

func (c *Connection) handleClose() {
	if c.connected.Load() {
		c.connected.Store(false)
		c.callBack.OnClose(c)
		_ = c.sock.Close()

		PutInPool(c.inBuffer)
		PutInPool(c.outBuffer)
	}
}

func (c *Connection) sendInLoop(data []byte) (closed bool) {
	if !c.outBuffer.IsEmpty() {
		_, _ = c.outBuffer.Write(data)
		return
	}
	n, err := c.sock.Write(data)
	if err != nil && err != errAgain {
		c.handleClose()
		closed = true
		return
	}
	if n <= 0 {
		_, _ = c.outBuffer.Write(data)
	} else if n < len(data) {
		_, _ = c.outBuffer.Write(data[n:])
	}
	return
}
