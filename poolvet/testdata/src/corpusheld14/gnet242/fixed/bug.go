// Package fixed is the fixed twin of panjf2000/gnet#242
// (https://github.com/panjf2000/gnet/issues/242): AsyncWrite takes a
// callback that the event loop runs once the write is done, and the frame's
// buffer goes back to the pool in that callback.
package fixed

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

// AsyncWrite queues buf to be written by the event loop and returns at once;
// callback runs on the event loop after the write.
func (c *Conn) AsyncWrite(buf []byte, callback func(error)) error {
	c.tasks <- func() {
		_, err := c.w.Write(buf)
		if callback != nil {
			callback(err)
		}
	}
	return nil
}

// Send frames data and writes it asynchronously.
func (c *Conn) Send(opcode byte, data []byte) error {
	bp, err := BuildMessage(opcode, data)
	if err != nil {
		return err
	}
	return c.AsyncWrite(*bp, func(error) {
		if cap(*bp) <= maxFrame {
			bytesPool.Put(bp)
		}
	})
}
