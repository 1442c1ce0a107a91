// Package bug reproduces the shape of panjf2000/gnet commit 8e48b2d
// (https://github.com/panjf2000/gnet/commit/8e48b2d4ed2b1628df264458a96dc5500629ee69,
// "Fix a bug on Windows when recycling bytes"): the Windows event loop put
// the connection's inbound buffer (c.cache) back into the bytes pool after
// each read but left the field pointing at it. When the connection was then
// closed, releaseTCP found c.cache non-nil and put the same buffer again.
//
// Check: doubleput (a field is put and left holding the buffer by one call;
// a later call on the same connection puts that field again; want at the
// later call, c.releaseTCP() in loopError, which the docs' "second Put
// through a field path left in place" rule implies).
package bug

import (
	"errors"
	"net"
	"sync"
)

type ByteBuffer struct {
	B []byte
}

func (b *ByteBuffer) Write(p []byte) (int, error) {
	b.B = append(b.B, p...)
	return len(p), nil
}

func (b *ByteBuffer) Bytes() []byte { return b.B }

func (b *ByteBuffer) Reset() { b.B = b.B[:0] }

const maxPooledSize = 64 << 10

var bytesPool = sync.Pool{New: func() any { return new(ByteBuffer) }}

func getBuffer() *ByteBuffer { return bytesPool.Get().(*ByteBuffer) }

func putBuffer(b *ByteBuffer) {
	if cap(b.B) > maxPooledSize {
		return
	}
	b.Reset()
	bytesPool.Put(b)
}

type Action int

const (
	None Action = iota
	Close
	Shutdown
)

var errClosing = errors.New("closing")

type stdConn struct {
	conn    net.Conn
	cache   *ByteBuffer // reuse memory of inbound data
	inbound []byte
}

func (c *stdConn) releaseTCP() {
	c.inbound = nil
	if c.cache != nil {
		putBuffer(c.cache)
		c.cache = nil
	}
}

type tcpIn struct {
	c  *stdConn
	in *ByteBuffer
}

type stderr struct {
	c   *stdConn
	err error
}

type loop struct {
	ch          chan any
	connections map[*stdConn]bool
	react       func(c *stdConn, data []byte) Action
}

func (lp *loop) loopRun() error {
	for v := range lp.ch {
		var err error
		switch v := v.(type) {
		case *tcpIn:
			err = lp.loopRead(v)
		case *stderr:
			err = lp.loopError(v.c, v.err)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (lp *loop) loopRead(ti *tcpIn) error {
	c := ti.c
	c.cache = ti.in
	action := lp.react(c, c.cache.Bytes())
	// keep what the handler did not consume
	c.inbound = append(c.inbound, c.cache.Bytes()...)
	putBuffer(c.cache)
	switch action {
	case Shutdown:
		return errClosing
	case Close:
		return c.conn.Close()
	}
	return nil
}

func (lp *loop) loopError(c *stdConn, err error) error {
	if e := c.conn.Close(); e != nil {
		return e
	}
	delete(lp.connections, c)
	c.releaseTCP() // want `doubleput`
	return nil
}

// readLoop is the per-connection reader goroutine feeding the loop.
func (lp *loop) readLoop(c *stdConn) {
	packet := make([]byte, 0x10000)
	for {
		n, err := c.conn.Read(packet)
		if err != nil {
			lp.ch <- &stderr{c, err}
			return
		}
		buf := getBuffer()
		_, _ = buf.Write(packet[:n])
		lp.ch <- &tcpIn{c, buf}
	}
}
