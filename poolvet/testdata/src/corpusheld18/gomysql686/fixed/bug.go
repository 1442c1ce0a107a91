// Package fixed is the fix of go-mysql-org/go-mysql#686
// (https://github.com/go-mysql-org/go-mysql/pull/686, commit e849204): the
// pool holds *ByteSlice, a struct around the slice, so Put stores a pointer
// and allocates nothing; the channel cache is gone.
package fixed

import (
	"io"
	"sync"
)

// maxPooledSlice bounds the buffers kept for reuse.
const maxPooledSlice = 1 << 16

// ByteSlice is a pooled buffer.
type ByteSlice struct {
	B []byte
}

var byteSlicePool = sync.Pool{
	New: func() any {
		return new(ByteSlice)
	},
}

// ByteSliceGet returns a buffer of the given length.
func ByteSliceGet(length int) *ByteSlice {
	data := byteSlicePool.Get().(*ByteSlice)
	if cap(data.B) < length {
		data.B = make([]byte, length)
	} else {
		data.B = data.B[:length]
	}
	return data
}

// ByteSlicePut gives a buffer back for reuse.
func ByteSlicePut(data *ByteSlice) {
	if cap(data.B) > maxPooledSlice {
		return
	}
	data.B = data.B[:0]
	byteSlicePool.Put(data)
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
	data.B[4] = command
	copy(data.B[5:], arg)

	err := c.WritePacket(data.B)

	ByteSlicePut(data)

	return err
}

// WriteCommandStr sends a command with a string argument.
func (c *Conn) WriteCommandStr(command byte, arg string) error {
	return c.writeCommandBuf(command, []byte(arg))
}
