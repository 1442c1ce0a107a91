// Package bug reproduces the shape of SagerNet/sing commit dc8bfac
// (https://github.com/SagerNet/sing/commit/dc8bfaca6f81cb0e57f9157cc6013d4cb30eb7d0),
// "bufio: Fix race between ReadCached and Close in cached connections": a
// CachedConn holds a pooled, reference-counted buffer of bytes a sniffer already
// read. ReadCached hands that buffer to the caller (who releases it when done) and
// Close releases it itself. Both read c.buffer and clear it with no
// synchronisation, so when the relay goroutine takes the cached buffer while the
// connection is being closed, both drop a reference and both call Release: the
// refcount goes below zero, the zero check passes twice and the same backing
// array is put into the pool twice. The fix guards ReadCached and Close with one
// atomic taken flag, so exactly one of them owns the buffer.
// Check: doubleput (at the Release in Close, racing the caller's Release of the
// buffer ReadCached handed out).
package bug

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
)

const bufferSize = 2048

var bufPool = sync.Pool{New: func() any {
	b := make([]byte, bufferSize)
	return &b
}}

// Buffer is a pooled byte buffer with a reference count.
type Buffer struct {
	data    *[]byte
	start   int
	end     int
	refs    atomic.Int32
	managed bool
}

func NewBuffer() *Buffer {
	return &Buffer{data: bufPool.Get().(*[]byte), managed: true}
}

func (b *Buffer) IncRef() { b.refs.Add(1) }

func (b *Buffer) DecRef() { b.refs.Add(-1) }

func (b *Buffer) Bytes() []byte { return (*b.data)[b.start:b.end] }

func (b *Buffer) Read(p []byte) (int, error) {
	if b.start == b.end {
		return 0, io.EOF
	}
	n := copy(p, (*b.data)[b.start:b.end])
	b.start += n
	return n, nil
}

// Release returns the backing array to the pool once nobody holds a reference.
func (b *Buffer) Release() {
	if b == nil || !b.managed {
		return
	}
	if b.refs.Load() > 0 {
		return
	}
	bufPool.Put(b.data)
	b.data = nil
	b.start, b.end, b.managed = 0, 0, false
}

// CachedConn replays bytes that were read ahead (for sniffing) before reading
// from the underlying connection.
type CachedConn struct {
	net.Conn
	buffer *Buffer
}

func NewCachedConn(conn net.Conn, buffer *Buffer) *CachedConn {
	buffer.IncRef()
	return &CachedConn{Conn: conn, buffer: buffer}
}

// ReadCached hands the cached buffer to the caller, who must release it.
func (c *CachedConn) ReadCached() *Buffer {
	buffer := c.buffer
	c.buffer = nil
	if buffer != nil {
		buffer.DecRef()
	}
	return buffer
}

func (c *CachedConn) Read(p []byte) (n int, err error) {
	if c.buffer != nil {
		n, err = c.buffer.Read(p)
		if err == nil {
			return
		}
		c.buffer.DecRef()
		c.buffer.Release()
		c.buffer = nil
	}
	return c.Conn.Read(p)
}

func (c *CachedConn) Close() error {
	if buffer := c.buffer; buffer != nil {
		buffer.DecRef()
		buffer.Release() // want `doubleput`
		c.buffer = nil
	}
	return c.Conn.Close()
}

// relay copies the cached bytes and then the rest of the connection; the
// inbound's idle timer may Close the connection at the same time.
func relay(conn *CachedConn, w io.Writer, idle <-chan struct{}) error {
	go func() {
		<-idle
		conn.Close()
	}()
	if cached := conn.ReadCached(); cached != nil {
		_, err := w.Write(cached.Bytes())
		cached.Release()
		if err != nil {
			return err
		}
	}
	_, err := io.Copy(w, conn)
	return err
}
