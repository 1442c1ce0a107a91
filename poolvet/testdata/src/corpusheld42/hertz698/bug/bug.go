// Package bug reproduces the shape of cloudwego/hertz#698
// (https://github.com/cloudwego/hertz/pull/698): the standard-library network
// Conn keeps its input and output data in linked lists of nodes taken from a
// sync.Pool. Conn.Close handed every node back to the pool (linkBuffer.release)
// and then nilled the buffers, but the connection is still used after Close
// (the serve loop, or another goroutine, reads or skips on it), so it touches
// nodes that another connection may already have taken out of the pool, or
// panics. The fix stopped releasing in Close and attached the release to a
// finalizer on each linkBuffer instead.
// Check: useafterput (the Skip on the connection after Close put its nodes back).
package bug

import (
	"errors"
	"net"
	"sync"
)

var bufferPool = sync.Pool{}

func init() {
	bufferPool.New = func() interface{} {
		return &linkBufferNode{}
	}
}

type linkBufferNode struct {
	buf    []byte
	off    int
	malloc int
	next   *linkBufferNode
}

type linkBuffer struct {
	head  *linkBufferNode
	read  *linkBufferNode
	write *linkBufferNode
	len   int
}

func newBufferNode(size int) *linkBufferNode {
	node := bufferPool.Get().(*linkBufferNode)
	node.buf = make([]byte, size)
	return node
}

// Len is the number of unread bytes in the node.
func (b *linkBufferNode) Len() int { return b.malloc - b.off }

// Release resets the node and puts it back into the pool.
func (b *linkBufferNode) Release() {
	b.buf = nil
	b.off, b.malloc = 0, 0
	b.next = nil
	bufferPool.Put(b)
}

func (l *linkBuffer) release() {
	for l.head != nil {
		node := l.head
		l.head = l.head.next
		node.Release()
	}
}

// Conn wraps a net.Conn with pooled read and write buffers.
type Conn struct {
	c            net.Conn
	inputBuffer  *linkBuffer
	outputBuffer *linkBuffer
	maxSize      int
}

func newConn(c net.Conn, size int) *Conn {
	node := newBufferNode(size)
	outputNode := newBufferNode(0)
	return &Conn{
		c: c,
		inputBuffer: &linkBuffer{
			head:  node,
			read:  node,
			write: node,
		},
		outputBuffer: &linkBuffer{
			head:  outputNode,
			write: outputNode,
		},
		maxSize: size,
	}
}

func (c *Conn) fill(i int) error {
	node := c.inputBuffer.write
	for c.inputBuffer.len < i {
		if node.malloc == len(node.buf) {
			return errors.New("buffer full")
		}
		n, err := c.c.Read(node.buf[node.malloc:])
		if err != nil {
			return err
		}
		node.malloc += n
		c.inputBuffer.len += n
	}
	return nil
}

// Peek returns the next i bytes without moving the read pointer.
func (c *Conn) Peek(i int) ([]byte, error) {
	node := c.inputBuffer.read
	if err := c.fill(i); err != nil {
		return nil, err
	}
	if node.Len() < i {
		return nil, errors.New("not enough data")
	}
	return node.buf[node.off : node.off+i], nil
}

// Skip discards the next n bytes.
func (c *Conn) Skip(n int) error {
	node := c.inputBuffer.read
	if node.Len() < n {
		return errors.New("not enough data")
	}
	node.off += n
	c.inputBuffer.len -= n
	return nil
}

// Close closes the connection.
func (c *Conn) Close() error {
	c.inputBuffer.release()
	c.outputBuffer.release()
	c.inputBuffer, c.outputBuffer = nil, nil
	return c.c.Close()
}

// serve handles one request after another on the connection; a handler error
// closes it, but the loop still consumes the request it just peeked.
func serve(c *Conn, handle func(p []byte) error) error {
	for {
		p, err := c.Peek(4)
		if err != nil {
			return err
		}
		herr := handle(p)
		if herr != nil {
			c.Close()
		}
		if err := c.Skip(len(p)); err != nil { // want `useafterput`
			return err
		}
		if herr != nil {
			return herr
		}
	}
}
