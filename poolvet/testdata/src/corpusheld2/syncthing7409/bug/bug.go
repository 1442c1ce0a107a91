// Package bug reproduces the shape of syncthing/syncthing#7409 (https://github.com/syncthing/syncthing/pull/7409): while adding missing BufferPool.Put calls on error returns in lib/protocol, the PR found one place where the message buffer was put back into the pool and then still read for a debug log line. Once Put has run another connection may Get the same buffer and overwrite it, so the log reads someone else's bytes.
//
// Check: useafterput (contents of the pooled buffer read after an explicit Put).
package bug

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
	bufferPool.Put(bufp)
	if err != nil {
		return err
	}
	c.Debug("wrote message, header %x", buf[:4]) // want `used after|useafterput`
	return nil
}
