// Package bug reproduces the shape of lxzan/gws commit 6c82619
// (https://github.com/lxzan/gws/commit/6c826195563709d611308bf07afa8e464846ce9d):
// "Fix a hidden issue with WriteAsync: the function still depends on payload after
// execution". A received websocket Message owns a *bytes.Buffer taken from a
// size-classed sync.Pool, and Message.Close gives it back. WriteAsync only queued a
// closure that captured the caller's payload slice; the write ran later on the
// queue's goroutine. An OnMessage handler that echoes message.Bytes() with
// WriteAsync and closes the message with defer therefore lets the buffer go back to
// the pool (and be reused for the next frame) before the queued write reads it.
// The fix makes WriteAsync frame the payload into its own pooled buffer
// synchronously, so the queued task no longer touches the caller's bytes.
//
// Check: useafterput (the message's bytes are handed to a queued task that runs
// after the deferred Close puts the buffer back; report at the hand-off).
package bug

import (
	"bytes"
	"io"
	"sync"
)

type Opcode uint8

const (
	OpcodeText   Opcode = 0x1
	OpcodeBinary Opcode = 0x2
)

const (
	lv1 = 128
	lv2 = 1024
	lv3 = 16 * 1024
	lv4 = 128 * 1024
)

// BufferPool is a size-classed pool of *bytes.Buffer.
type BufferPool struct {
	pools  [5]*sync.Pool
	limits [5]int
}

func NewBufferPool() *BufferPool {
	var p BufferPool
	p.limits = [5]int{0, lv1, lv2, lv3, lv4}
	for i := 1; i < 5; i++ {
		capacity := p.limits[i]
		p.pools[i] = &sync.Pool{New: func() any {
			return bytes.NewBuffer(make([]byte, 0, capacity))
		}}
	}
	return &p
}

func (p *BufferPool) Get(n int) *bytes.Buffer {
	for i := 1; i < 5; i++ {
		if n <= p.limits[i] {
			b := p.pools[i].Get().(*bytes.Buffer)
			if b.Cap() < n {
				b.Grow(p.limits[i])
			}
			b.Reset()
			return b
		}
	}
	return bytes.NewBuffer(make([]byte, 0, n))
}

func (p *BufferPool) Put(b *bytes.Buffer, n int) {
	if b == nil || n == 0 {
		return
	}
	for i := 1; i < 5; i++ {
		if n <= p.limits[i] {
			if b.Cap() <= 4*p.limits[i] {
				b.Reset()
				p.pools[i].Put(b)
			}
			return
		}
	}
}

var myBufferPool = NewBufferPool()

type Message struct {
	vCap   int
	Opcode Opcode
	Data   *bytes.Buffer
}

func (c *Message) Bytes() []byte {
	return c.Data.Bytes()
}

// Close recycles the message buffer.
func (c *Message) Close() error {
	myBufferPool.Put(c.Data, c.vCap)
	c.Data = nil
	return nil
}

type asyncJob func()

type workerQueue struct {
	mu  sync.Mutex
	q   []asyncJob
	cur int32
	max int32
}

func (c *workerQueue) getJob(delta int32) asyncJob {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cur += delta
	if c.cur >= c.max || len(c.q) == 0 {
		return nil
	}
	job := c.q[0]
	c.q = c.q[1:]
	c.cur++
	return job
}

func (c *workerQueue) do(job asyncJob) {
	for job != nil {
		job()
		job = c.getJob(-1)
	}
}

// Push appends a job; it runs on a separate goroutine when a slot is free.
func (c *workerQueue) Push(job asyncJob) {
	c.mu.Lock()
	c.q = append(c.q, job)
	c.mu.Unlock()
	if job := c.getJob(0); job != nil {
		go c.do(job)
	}
}

type Conn struct {
	wmu        sync.Mutex
	conn       io.Writer
	writeQueue workerQueue
}

func NewConn(w io.Writer) *Conn {
	return &Conn{conn: w, writeQueue: workerQueue{max: 1}}
}

func (c *Conn) frame(opcode Opcode, payload []byte) (*bytes.Buffer, int) {
	vCap := len(payload) + 14
	buf := myBufferPool.Get(vCap)
	buf.WriteByte(0x80 | byte(opcode))
	buf.WriteByte(byte(len(payload)))
	buf.Write(payload)
	return buf, vCap
}

// WriteMessage frames and writes payload synchronously.
func (c *Conn) WriteMessage(opcode Opcode, payload []byte) error {
	buf, vCap := c.frame(opcode, payload)
	c.wmu.Lock()
	_, err := c.conn.Write(buf.Bytes())
	c.wmu.Unlock()
	myBufferPool.Put(buf, vCap)
	return err
}

// WriteAsync writes a message asynchronously and without blocking. The payload is
// framed into a buffer owned by the queued task before WriteAsync returns, so the
// caller may recycle payload as soon as the call is done.
func (c *Conn) WriteAsync(opcode Opcode, payload []byte) error {
	buf, vCap := c.frame(opcode, payload)
	c.writeQueue.Push(func() {
		c.wmu.Lock()
		_, _ = c.conn.Write(buf.Bytes())
		c.wmu.Unlock()
		myBufferPool.Put(buf, vCap)
	})
	return nil
}

type Handler struct{}

// OnMessage echoes every message back to the peer.
func (h *Handler) OnMessage(socket *Conn, message *Message) {
	defer message.Close()
	_ = socket.WriteAsync(message.Opcode, message.Bytes())
}
