// Source: https://github.com/gorilla/websocket/issues/953
// ("[BUG] WriteMessage leading Out of memory on using WriteBufferPool").
//
// Bug: the application configured Upgrader.WriteBufferPool with a sync.Pool
// whose New function returns a []byte. gorilla/websocket only ever Puts its
// private writePoolData wrapper into the pool and, in Conn.beginMessage,
// asserts the value it Gets to writePoolData. Every Get on an empty pool
// therefore returned the []byte made by New, the comma-ok assertion failed,
// and the connection allocated a fresh write buffer anyway (plus the wasted
// 1 KiB from New), so memory use was the same as with no pool at all.
//
// Fix (maintainer's answer in the issue): the value stored in the pool is
// unspecified to the application; drop the New function so that the pool
// only ever holds the writePoolData values Put by the library.
//
// Check: typemismatch (at the Get's type assertion in beginMessage: the pool
// it reads from is the application's, whose New stores []byte while the
// assertion expects writePoolData)
package fixed

import (
	"net"
	"sync"
)

const maxFrameHeaderSize = 2 + 8 + 4

// BufferPool represents a pool of buffers. The *sync.Pool type satisfies
// this interface.
type BufferPool interface {
	Get() interface{}
	Put(interface{})
}

// writePoolData is the type added to the write buffer pool. This wrapper is
// used to prevent applications from peeking at and depending on the values
// added to the pool.
type writePoolData struct{ buf []byte }

type Conn struct {
	conn         net.Conn
	writePool    BufferPool
	writeBufSize int
	writeBuf     []byte
	writer       *messageWriter
	writeErr     error
}

func newConn(conn net.Conn, writeBufferSize int, writeBufferPool BufferPool) *Conn {
	c := &Conn{conn: conn, writePool: writeBufferPool}
	c.writeBufSize = writeBufferSize + maxFrameHeaderSize
	if writeBufferPool == nil {
		c.writeBuf = make([]byte, c.writeBufSize)
	}
	return c
}

func (c *Conn) beginMessage(mw *messageWriter, messageType int) error {
	if c.writer != nil {
		c.writer.Close()
		c.writer = nil
	}
	if c.writeErr != nil {
		return c.writeErr
	}

	mw.c = c
	mw.frameType = messageType
	mw.pos = maxFrameHeaderSize

	if c.writeBuf == nil {
		wpd, ok := c.writePool.Get().(writePoolData)
		if ok {
			c.writeBuf = wpd.buf
		} else {
			c.writeBuf = make([]byte, c.writeBufSize)
		}
	}
	return nil
}

type messageWriter struct {
	c         *Conn
	pos       int
	frameType int
	err       error
}

func (w *messageWriter) endMessage(err error) error {
	if w.err != nil {
		return err
	}
	c := w.c
	w.err = err
	c.writer = nil
	if c.writePool != nil {
		c.writePool.Put(writePoolData{buf: c.writeBuf})
		c.writeBuf = nil
	}
	return err
}

func (w *messageWriter) Write(p []byte) (int, error) {
	n := copy(w.c.writeBuf[w.pos:], p)
	w.pos += n
	return n, nil
}

func (w *messageWriter) Close() error {
	if w.err != nil {
		return w.err
	}
	_, err := w.c.conn.Write(w.c.writeBuf[maxFrameHeaderSize:w.pos])
	return w.endMessage(err)
}

// WriteMessage is a helper method for getting a writer using NextWriter,
// writing the message and closing the writer.
func (c *Conn) WriteMessage(messageType int, data []byte) error {
	var mw messageWriter
	if err := c.beginMessage(&mw, messageType); err != nil {
		return err
	}
	c.writer = &mw
	if _, err := mw.Write(data); err != nil {
		return err
	}
	return mw.Close()
}

// Upgrader specifies parameters for upgrading an HTTP connection to a
// WebSocket connection.
type Upgrader struct {
	ReadBufferSize    int
	WriteBufferSize   int
	WriteBufferPool   BufferPool
	EnableCompression bool
}

func (u *Upgrader) Upgrade(netConn net.Conn) (*Conn, error) {
	return newConn(netConn, u.WriteBufferSize, u.WriteBufferPool), nil
}

// Application code from the issue.

// No New function: the pool only holds the values Put by the library.
var writeBufferPool = sync.Pool{}

var upgrader = Upgrader{
	ReadBufferSize:    1024,
	WriteBufferPool:   &writeBufferPool,
	EnableCompression: false,
}

func serve(netConn net.Conn, msgs [][]byte) error {
	c, err := upgrader.Upgrade(netConn)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if err := c.WriteMessage(1, m); err != nil {
			return err
		}
	}
	return nil
}
