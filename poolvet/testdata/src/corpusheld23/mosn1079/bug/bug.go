// Package bug reproduces the shape of mosn/mosn#1079 "Fix buffer premature recycle problem with async conn
// write" (https://github.com/mosn/mosn/pull/1079, commit cf7e43d2c). The bolt encoder took the bytes of an
// encoded frame from the request context's buffer container (GetBytesByContext): every slice taken there
// is recorded and put back into the shared byte pool when the downstream stream is given back
// (giveStream -> ctx.Give()). The encoded frame is written with connection.Write, which only queues it on
// writeBufferChan for the write loop. When the stream finishes (response, reset or timeout) before the
// write loop has flushed the frame, the bytes are already back in the pool, and another request can encode
// into them while the write loop sends them. The fix encodes into an IoBuffer from the global pool, which the
// connection releases itself once the write is done.
// Check: useafterput (the write loop uses a frame whose bytes the stream already gave back; reported where
// the write loop writes it).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

const maxPooled = 64 << 10

var bytesPool = sync.Pool{
	New: func() interface{} {
		b := make([]byte, 0, 1024)
		return &b
	},
}

func getBytes(size int) *[]byte {
	p := bytesPool.Get().(*[]byte)
	if cap(*p) < size {
		b := make([]byte, size)
		p = &b
	}
	*p = (*p)[:size]
	return p
}

func putBytes(p *[]byte) {
	if cap(*p) > maxPooled {
		return
	}
	*p = (*p)[:0]
	bytesPool.Put(p)
}

// byteBufferPoolContainer records the slices taken for one request; Reset gives them all back.
type byteBufferPoolContainer struct {
	bytes []*[]byte
}

func (c *byteBufferPoolContainer) Take(size int) *[]byte {
	p := getBytes(size)
	c.bytes = append(c.bytes, p)
	return p
}

func (c *byteBufferPoolContainer) Reset() {
	for i, p := range c.bytes {
		putBytes(p)
		c.bytes[i] = nil
	}
	c.bytes = c.bytes[:0]
}

// requestContext stands for the per-request buffer pool context.
type requestContext struct {
	buffers byteBufferPoolContainer
}

func GetBytesByContext(ctx *requestContext, size int) *[]byte {
	return ctx.buffers.Take(size)
}

func (ctx *requestContext) Give() {
	ctx.buffers.Reset()
}

type Request struct {
	RequestID uint32
	Content   []byte
}

const requestHeaderLen = 8

func encodeRequest(ctx *requestContext, req *Request) []byte {
	frameLen := requestHeaderLen + len(req.Content)
	buf := *GetBytesByContext(ctx, frameLen)
	binary.BigEndian.PutUint32(buf[0:], req.RequestID)
	binary.BigEndian.PutUint32(buf[4:], uint32(len(req.Content)))
	copy(buf[requestHeaderLen:], req.Content)
	return buf
}

type connection struct {
	writeBufferChan chan [][]byte
	rawConn         io.Writer
}

// Write queues the buffers for the write loop and returns at once.
func (c *connection) Write(buffers ...[]byte) error {
	c.writeBufferChan <- buffers
	return nil
}

func (c *connection) startWriteLoop() {
	for buffers := range c.writeBufferChan {
		for _, b := range buffers {
			if _, err := c.rawConn.Write(b); err != nil { // want `useafterput`
				return
			}
		}
	}
}

type downStream struct {
	context      *requestContext
	upstreamConn *connection
}

func (s *downStream) appendRequest(req *Request) error {
	buf := encodeRequest(s.context, req)
	return s.upstreamConn.Write(buf)
}

func (s *downStream) giveStream() {
	// Give buffers to bufferPool
	s.context.Give()
}

func (s *downStream) onUpstreamReset() {
	s.giveStream()
}
