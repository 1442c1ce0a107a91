package doubleput

import (
	"io"
	"sync"
	"sync/atomic"
)

type ring struct{ buf []byte }

var ringPool = sync.Pool{New: func() any { return new(ring) }}

// A connection closed by its read path and again by its write path: its
// close method puts the buffers it keeps with no check of its state
// first (Allenxuxu/gev 873b775).
type ringConn struct {
	sock      io.ReadWriteCloser
	connected atomic.Bool
	in, out   *ring
}

func (c *ringConn) handleClose() {
	c.connected.Store(false)
	c.sock.Close()
	ringPool.Put(c.in)  // want `handleClose puts c.in back into the pool but leaves it in the receiver`
	ringPool.Put(c.out) // want `handleClose puts c.out back into the pool but leaves it in the receiver`
}

func (c *ringConn) handleRead(p []byte) {
	if _, err := c.sock.Read(p); err != nil {
		c.handleClose()
	}
}

func (c *ringConn) handleWrite(p []byte) {
	if _, err := c.sock.Write(p); err != nil {
		c.handleClose()
	}
}

// The fix: a second close returns at once.
type guardedConn struct {
	sock      io.ReadWriteCloser
	connected atomic.Bool
	in, out   *ring
}

func (c *guardedConn) handleClose() {
	if !c.connected.CompareAndSwap(true, false) {
		return
	}
	c.sock.Close()
	ringPool.Put(c.in)
	ringPool.Put(c.out)
}

func (c *guardedConn) handleRead(p []byte) {
	if _, err := c.sock.Read(p); err != nil {
		c.handleClose()
	}
}

func (c *guardedConn) handleWrite(p []byte) {
	if _, err := c.sock.Write(p); err != nil {
		c.handleClose()
	}
}

// Clearing the fields after the Puts also makes a second close harmless.
type clearingConn struct {
	sock    io.ReadWriteCloser
	in, out *ring
}

func (c *clearingConn) closeConn() {
	c.sock.Close()
	if c.in != nil {
		ringPool.Put(c.in)
		c.in = nil
	}
	if c.out != nil {
		ringPool.Put(c.out)
		c.out = nil
	}
}

func (c *clearingConn) handleRead(p []byte) {
	if _, err := c.sock.Read(p); err != nil {
		c.closeConn()
	}
}

func (c *clearingConn) handleWrite(p []byte) {
	if _, err := c.sock.Write(p); err != nil {
		c.closeConn()
	}
}
