// Package bug reproduces the shape of cloudwego/kitex#992
// (https://github.com/cloudwego/kitex/pull/992, "fix(grpc): use mcache to fix
// memory leak caused by grpc codec buffer to reuse memory incorrectly"): the
// nphttp2 transport wraps each gRPC connection read in a *buffer taken from
// bufferPool. Next grows rbuf to the size of the frame being decoded
// (2*cap+n), and Release only re-slices rbuf to [:0], drops the write slices
// and puts the buffer back, still pointing at its connection. After a few
// large messages every pooled buffer carries a message-sized read slice (and a
// dead conn), which showed up as a steady memory leak. The fix hands rbuf back
// to the mcache allocator and nils rbuf and conn on Release.
//
// Check: unbounded (the grown rbuf goes back with the buffer, no size bound)
// and noreset (conn is not cleared); both reported at the Put in Release.
package bug

import (
	"net"
	"sync"
)

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
		return &buffer{
			rbuf: make([]byte, 0, 4096),
		}
	},
}

func newBuffer(conn GRPCConn) *buffer {
	buf := bufferPool.Get().(*buffer)
	buf.conn = conn
	return buf
}

func (b *buffer) growRbuf(n int) {
	capacity := cap(b.rbuf)
	if capacity >= n {
		return
	}
	b.rbuf = make([]byte, 0, 2*capacity+n)
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
	b.rbuf = b.rbuf[:0]
	b.whdr = nil
	b.wbuf = nil
	bufferPool.Put(b) // want `unbounded` `noreset`
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
