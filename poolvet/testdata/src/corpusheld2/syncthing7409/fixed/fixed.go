// Package fixed is the repaired twin of syncthing/syncthing#7409 (https://github.com/syncthing/syncthing/pull/7409): the fix logs before the buffer goes back to the pool, and returns it on the error path too.
package fixed

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const bufSize = 16 << 10

var bufferPool = sync.Pool{New: func() any {
	b := make([]byte, bufSize)
	return &b
}}

var errTooLarge = errors.New("message too large")

// Conn writes length-prefixed messages.
type Conn struct {
	W     io.Writer
	Debug func(format string, args ...any)
}

// WriteMessage frames msg and writes it to the connection.
func (c *Conn) WriteMessage(msg []byte) error {
	if len(msg)+4 > bufSize {
		return errTooLarge
	}
	bufp := bufferPool.Get().(*[]byte)
	buf := (*bufp)[:4+len(msg)]
	binary.BigEndian.PutUint32(buf, uint32(len(msg)))
	copy(buf[4:], msg)

	_, err := c.W.Write(buf)
	if err == nil {
		c.Debug("wrote message, header %x", buf[:4])
	}
	bufferPool.Put(bufp)
	return err
}
