// Package bug reproduces the shape of go-mysql-org/go-mysql#686
// (https://github.com/go-mysql-org/go-mysql/pull/686, "Utilise byteSlice as
// a part of struct to avoid allocations", commit e849204): the client's
// packet buffers come from a sync.Pool of []byte (behind a small channel
// cache) and go back with byteSlicePool.Put(data), under a nolint for
// staticcheck. Each Put allocates a slice header for the interface; the PR
// wraps the slice in a pooled *ByteSlice struct (and drops the channel).
//
// The size guard in ByteSlicePut is not in the original; it is here so that
// the only bug left is the boxing one.
//
// Check: nonpointer (a []byte value put into a sync.Pool).
package bug

import (
	"io"
	"sync"
)

// maxPooledSlice bounds the buffers kept for reuse.
const maxPooledSlice = 1 << 16

var (
	byteSlicePool = sync.Pool{
		New: func() any {
			return []byte{}
		},
	}
	byteSliceChan = make(chan []byte, 10)
)

// ByteSliceGet returns a buffer of the given length.
func ByteSliceGet(length int) (data []byte) {
	select {
	case data = <-byteSliceChan:
	default:
		data = byteSlicePool.Get().([]byte)[:0]
	}
	if cap(data) < length {
		data = make([]byte, length)
	} else {
		data = data[:length]
	}
	return data
}

// ByteSlicePut gives a buffer back for reuse.
func ByteSlicePut(data []byte) {
	if cap(data) > maxPooledSlice {
		return
	}
	select {
	case byteSliceChan <- data:
	default:
		byteSlicePool.Put(data) // want `nonpointer`
	}
}

// Conn is a client connection.
type Conn struct {
	w   io.Writer
	seq uint8
}

func (c *Conn) ResetSequence() {
	c.seq = 0
}

// WritePacket fills in the 4-byte header of data and sends it.
func (c *Conn) WritePacket(data []byte) error {
	length := len(data) - 4
	data[0] = byte(length)
	data[1] = byte(length >> 8)
	data[2] = byte(length >> 16)
	data[3] = c.seq
	if _, err := c.w.Write(data); err != nil {
		return err
	}
	c.seq++
	return nil
}

func (c *Conn) writeCommandBuf(command byte, arg []byte) error {
	c.ResetSequence()

	length := len(arg) + 1
	data := ByteSliceGet(length + 4)
	data[4] = command
	copy(data[5:], arg)

	err := c.WritePacket(data)

	ByteSlicePut(data)

	return err
}

// WriteCommandStr sends a command with a string argument.
func (c *Conn) WriteCommandStr(command byte, arg string) error {
	return c.writeCommandBuf(command, []byte(arg))
}
