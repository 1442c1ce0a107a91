// Package bug reproduces the shape described in panjf2000/gnet#242
// (https://github.com/panjf2000/gnet/issues/242): an RPC framework built its
// frames in byte slices taken from a pool and passed them to gnet's
// Conn.AsyncWrite, which only queues the write for the event loop. Putting
// the slice back right after AsyncWrite returned let a concurrent
// BuildMessage take the same slice, still queued but not yet written, and
// overwrite it; the reporter asked for a completion callback to know when
// the slice may go back.
//
// Check: useafterput (hand-off: AsyncWrite sends a closure that captured the
// frame on the event loop's task channel; the caller then puts the frame's
// buffer back with nothing waiting for the write; the report is at the Put).
package bug

import (
	"errors"
	"io"
	"sync"
)

const (
	baseLenMax = 254
	maxFrame   = 64 << 10
)

var bytesPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

// BuildMessage assembles opcode, length and payload in a pooled buffer.
func BuildMessage(opcode byte, data []byte) (*[]byte, error) {
	if len(data) > baseLenMax {
		return nil, errors.New("payload oversize")
	}
	bp := bytesPool.Get().(*[]byte)
	res := (*bp)[:0]
	res = append(res, opcode, byte(len(data)))
	res = append(res, data...)
	*bp = res
	return bp, nil
}

// Conn queues writes for its event loop.
type Conn struct {
	w     io.Writer
	tasks chan func()
}

func NewConn(w io.Writer) *Conn {
	c := &Conn{w: w, tasks: make(chan func(), 128)}
	go c.loop()
	return c
}

func (c *Conn) loop() {
	for task := range c.tasks {
		task()
	}
}

// AsyncWrite queues buf to be written by the event loop and returns at once.
func (c *Conn) AsyncWrite(buf []byte) error {
	c.tasks <- func() {
		c.w.Write(buf)
	}
	return nil
}

// Send frames data and writes it asynchronously.
func (c *Conn) Send(opcode byte, data []byte) error {
	bp, err := BuildMessage(opcode, data)
	if err != nil {
		return err
	}
	err = c.AsyncWrite(*bp)
	if cap(*bp) <= maxFrame {
		bytesPool.Put(bp) // want `useafterput`
	}
	return err
}
