// Package bug is the fixed twin of cloudwego/kitex#992
// (https://github.com/cloudwego/kitex/pull/992): the read slice is allocated
// per message (at least 4 KiB) and dropped on Release together with the
// connection, so pooled buffers stay small. (Kitex hands rbuf to its mcache
// allocator; here it is simply dropped.)
//
// Check: unbounded, noreset (no report expected).
package bug

import (
	"net"
	"sync"
)

const minMallocSize = 4 * 1024

// GRPCConn is a connection that reads and writes whole HTTP/2 frames.
type GRPCConn interface {
	net.Conn
	WriteFrame(hdr, data []byte) (n int, err error)
	ReadFrame() (hdr, data []byte, err error)
}

type buffer struct {
	conn       GRPCConn
	rbuf       []byte // read side
	whdr, wbuf []byte // write side
}

var bufferPool = sync.Pool{
	New: func() interface{} {
		return &buffer{}
	},
}

func newBuffer(conn GRPCConn) *buffer {
	buf := bufferPool.Get().(*buffer)
	buf.conn = conn
	return buf
}

func (b *buffer) growRbuf(n int) {
	if cap(b.rbuf) >= n {
		return
	}
	if n < minMallocSize {
		n = minMallocSize
	}
	b.rbuf = make([]byte, 0, n)
}

// Next reads exactly n bytes of the current message.
func (b *buffer) Next(n int) (p []byte, err error) {
	b.growRbuf(n)
	if _, err = b.conn.Read(b.rbuf[:n]); err != nil {
		return nil, err
	}
	return b.rbuf[:n], nil
}

// WriteHeader records the frame header to send.
func (b *buffer) WriteHeader(buf []byte) error {
	b.whdr = buf
	return nil
}

// WriteData records the frame payload to send.
func (b *buffer) WriteData(buf []byte) error {
	b.wbuf = buf
	return nil
}

// Flush sends the recorded frame.
func (b *buffer) Flush() (err error) {
	_, err = b.conn.WriteFrame(b.whdr, b.wbuf)
	b.whdr = nil
	b.wbuf = nil
	return err
}

// Release gives the buffer back to the pool.
func (b *buffer) Release(e error) (err error) {
	b.conn = nil
	b.rbuf = nil
	b.whdr = nil
	b.wbuf = nil
	bufferPool.Put(b)
	return e
}

// decodeMessage reads one length-prefixed gRPC message from conn.
func decodeMessage(conn GRPCConn, length int) ([]byte, error) {
	buf := newBuffer(conn)
	data, err := buf.Next(length)
	if err != nil {
		return nil, buf.Release(err)
	}
	out := make([]byte, len(data))
	copy(out, data)
	return out, buf.Release(nil)
}
