// Package bug reproduces the shape of panjf2000/gnet commit c7d0993
// (https://github.com/panjf2000/gnet/commit/c7d0993df3716e91b6554bbe699e66ff289f024f):
// gnet's kTLS read path keeps a pool of record buffers. The pool's New made a
// pointer to a fixed-size array, the reader asserted a pointer to a slice, and the
// deferred clean-up wrote the slice back through that pointer but then handed the
// bare slice, not the pointer, to Put. Every later Get then saw a []byte (or an
// array pointer) where it asserted *[]byte and panicked. The fix makes New return a
// *[]byte and puts the pointer back.
// Check: typemismatch (the Put in the deferred closure puts a []byte into a pool
// whose New and Get use a pointer); the same Put is also a non-pointer Put.
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
		return new([maxPlaintext]byte)
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
			// (possibly resliced) data back into it before returning it.
			*dataPtr = data
			inBufPool.Put(data) // want `typemismatch` `nonpointer`
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
