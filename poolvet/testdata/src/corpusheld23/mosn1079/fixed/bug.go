// Package bug is the fixed twin of mosn/mosn#1079 (https://github.com/mosn/mosn/pull/1079): the encoder no
// longer borrows the frame bytes from the request context; it encodes into an IoBuffer from the global
// pool, and the connection's write loop gives that buffer back once it has been written, so finishing the
// stream cannot recycle a frame that is still queued.
// Check: useafterput (none expected here).
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

func (ctx *requestContext) Give() {
	ctx.buffers.Reset()
}

// IoBuffer is a buffer from the global pool; whoever ends up with it releases it.
type IoBuffer struct {
	buf *[]byte
}

func GetIoBuffer(size int) *IoBuffer { return &IoBuffer{buf: getBytes(size)} }

func (b *IoBuffer) Bytes() []byte { return *b.buf }

func PutIoBuffer(b *IoBuffer) {
	putBytes(b.buf)
	b.buf = nil
}

type Request struct {
	RequestID uint32
	Content   []byte
}

const requestHeaderLen = 8

func encodeRequest(req *Request) *IoBuffer {
	frameLen := requestHeaderLen + len(req.Content)
	iob := GetIoBuffer(frameLen)
	buf := iob.Bytes()
	binary.BigEndian.PutUint32(buf[0:], req.RequestID)
	binary.BigEndian.PutUint32(buf[4:], uint32(len(req.Content)))
	copy(buf[requestHeaderLen:], req.Content)
	return iob
}

type connection struct {
	writeBufferChan chan []*IoBuffer
	rawConn         io.Writer
}

// Write queues the buffers for the write loop and returns at once; the write loop owns them from here.
func (c *connection) Write(buffers ...*IoBuffer) error {
	c.writeBufferChan <- buffers
	return nil
}

func (c *connection) startWriteLoop() {
	for buffers := range c.writeBufferChan {
		for _, b := range buffers {
			_, err := c.rawConn.Write(b.Bytes())
			PutIoBuffer(b)
			if err != nil {
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
	buf := encodeRequest(req)
	return s.upstreamConn.Write(buf)
}

func (s *downStream) giveStream() {
	// Give buffers to bufferPool
	s.context.Give()
}

func (s *downStream) onUpstreamReset() {
	s.giveStream()
}
