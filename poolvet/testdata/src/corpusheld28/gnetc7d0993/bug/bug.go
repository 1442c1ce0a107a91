// Package bug reproduces the shape of panjf2000/gnet commit c7d0993
// (https://github.com/panjf2000/gnet/commit/c7d0993df3716e91b6554bbe699e66ff289f024f):
// the kTLS read path of gnet's forked crypto/tls keeps a sync.Pool of record
// buffers. Get hands out a *[]byte and the deferred closure stores the
// (possibly resliced) slice back through that pointer, but then it puts the
// bare []byte slice, not the *[]byte it got, into the pool. The next Get in
// readRecordOrCCS asserts *[]byte and panics with an interface conversion
// error (New, for its part, returns a *[maxPlaintext]byte array pointer). The
// fix puts dataPtr back and makes New return a *[]byte too.
//
// Check: typemismatch (reported at the ktlsInBufPool.Put(data) in the deferred
// closure of readRecordOrCCS).
package bug

import (
	"errors"
	"io"
	"sync"
)

const maxPlaintext = 16384

type recordType uint8

type kTLSCipher interface{ kernel() }

type halfConn struct {
	cipher any
	err    error
}

type Socket interface{ Fd() int }

type Conn struct {
	conn  any
	in    halfConn
	input []byte
}

var errShortRecord = errors.New("tls: short record")

// ktlsInBufPool pools the buffers used by ktlsReadRecord.
var ktlsInBufPool = sync.Pool{
	New: func() any {
		return new([maxPlaintext]byte)
	},
}

func ktlsReadRecord(fd int, b []byte) (recordType, int, error) {
	if fd < 0 {
		return 0, 0, io.EOF
	}
	if len(b) < 5 {
		return 0, 0, errShortRecord
	}
	return recordType(b[0]), len(b) / 2, nil
}

func (c *Conn) readRecordOrCCS(expectChangeCipherSpec bool) error {
	if c.in.err != nil {
		return c.in.err
	}

	var (
		typ  recordType
		data []byte
		n    int
		err  error
	)

	if _, ok := c.in.cipher.(kTLSCipher); ok {
		dataPtr := ktlsInBufPool.Get().(*[]byte)
		data = *dataPtr
		defer func() {
			// Keep the pointer returned by Get so that the slice header
			// does not escape; write the slice back through it.
			*dataPtr = data
			ktlsInBufPool.Put(data) // want `typemismatch`
		}()
		if typ, n, err = ktlsReadRecord(c.conn.(Socket).Fd(), data); err != nil {
			return err
		}
		data = data[:n]
		goto processMessage
	}
	return io.EOF

processMessage:
	if expectChangeCipherSpec && typ != 20 {
		return errors.New("tls: unexpected record")
	}
	c.input = append(c.input[:0], data...)
	return nil
}
