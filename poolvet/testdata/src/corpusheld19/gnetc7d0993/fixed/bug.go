// Package bug is the fixed twin of panjf2000/gnet commit c7d0993
// (https://github.com/panjf2000/gnet/commit/c7d0993df3716e91b6554bbe699e66ff289f024f):
// the pool's New now returns a *[]byte, and the deferred clean-up restores the full
// length through the pointer from Get and puts that pointer back.
// Check: typemismatch (none expected here).
package bug

import (
	"errors"
	"sync"
)

const maxPlaintext = 16384

type recordType uint8

type socket interface {
	Fd() int
}

type kernelCipher struct{}

type halfConn struct {
	cipher any
	err    error
}

type Conn struct {
	conn  any
	in    halfConn
	input []byte
}

// inBufPool pools the buffers used by readKernelRecord.
var inBufPool = sync.Pool{
	New: func() any {
		buf := make([]byte, maxPlaintext)
		return &buf
	},
}

var errShort = errors.New("short record")

// readKernelRecord stands in for the recvmsg call that reads one decrypted
// record from a kTLS socket.
func readKernelRecord(fd int, b []byte) (recordType, int, error) {
	if fd < 0 {
		return 0, 0, errShort
	}
	return 23, len(b) / 2, nil
}

func (c *Conn) readRecord() error {
	if c.in.err != nil {
		return c.in.err
	}
	var (
		typ recordType
		n   int
		err error
	)
	if _, ok := c.in.cipher.(kernelCipher); ok {
		dataPtr := inBufPool.Get().(*[]byte)
		data := *dataPtr
		defer func() {
			// Keep the heap-allocated slice header from Get and write the
			// full-length data back into it before returning it.
			*dataPtr = data[:maxPlaintext]
			inBufPool.Put(dataPtr)
		}()
		if typ, n, err = readKernelRecord(c.conn.(socket).Fd(), data); err != nil {
			return err
		}
		data = data[:n]
		if typ != 23 {
			return errShort
		}
		c.input = append(c.input[:0], data...)
		return nil
	}
	return errShort
}
