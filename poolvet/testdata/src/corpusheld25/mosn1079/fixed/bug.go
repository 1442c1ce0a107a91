// Package bug reproduces the shape of mosn/mosn#1079
// (https://github.com/mosn/mosn/pull/1079, "Fix buffer premature recycle
// problem with async conn write", commit cf7e43d2c): the bolt codec encoded a
// frame into bytes tracked by the stream's buffer context, which giveStream
// recycled as soon as the stream ended, while the connection's write loop
// could still be sending them. This is the fixed twin: the encode buffer is a
// pooled IoBuffer owned by the write path, and the connection gives it back
// to the pool only after it was written.
//
// Check: useafterput (fixed twin, no report expected).
package bug

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

var ioBufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// GetIoBuffer returns an empty pooled buffer.
func GetIoBuffer(size int) *bytes.Buffer {
	b := ioBufferPool.Get().(*bytes.Buffer)
	b.Grow(size)
	return b
}

// PutIoBuffer gives a buffer back once nobody uses it any more.
func PutIoBuffer(b *bytes.Buffer) {
	if b.Cap() > 64*1024 {
		return
	}
	b.Reset()
	ioBufferPool.Put(b)
}

// bufferValue tracks the pooled buffers of one stream.
type bufferValue struct {
	bufs []*bytes.Buffer
}

// Give hands every buffer of the stream back to the pool.
func (bv *bufferValue) Give() {
	for _, b := range bv.bufs {
		PutIoBuffer(b)
	}
	bv.bufs = bv.bufs[:0]
}

// connection writes asynchronously through its write loop.
type connection struct {
	raw             io.Writer
	writeBufferChan chan []*bytes.Buffer
}

func newConnection(w io.Writer) *connection {
	c := &connection{raw: w, writeBufferChan: make(chan []*bytes.Buffer, 8)}
	go c.startWriteLoop()
	return c
}

// Write queues the buffers for the write loop, which owns them from now on.
func (c *connection) Write(buffers ...*bytes.Buffer) error {
	c.writeBufferChan <- buffers
	return nil
}

func (c *connection) startWriteLoop() {
	for buffers := range c.writeBufferChan {
		for _, b := range buffers {
			_, err := c.raw.Write(b.Bytes())
			// this buffer is recycled after connection.Write finished
			PutIoBuffer(b)
			if err != nil {
				return
			}
		}
	}
}

// Response is a decoded bolt response.
type Response struct {
	RequestID uint32
	Status    uint16
	Content   []byte
}

const responseHeaderLen = 10

func encodeResponse(resp *Response) *bytes.Buffer {
	frameLen := responseHeaderLen + len(resp.Content)
	buf := GetIoBuffer(frameLen)
	var hdr [responseHeaderLen]byte
	binary.BigEndian.PutUint32(hdr[0:], resp.RequestID)
	binary.BigEndian.PutUint16(hdr[4:], resp.Status)
	binary.BigEndian.PutUint32(hdr[6:], uint32(len(resp.Content)))
	buf.Write(hdr[:])
	buf.Write(resp.Content)
	return buf
}

// downStream is one proxied request/response exchange.
type downStream struct {
	bufCtx *bufferValue
	conn   *connection
}

func (s *downStream) appendResponse(resp *Response) error {
	buf := encodeResponse(resp)
	return s.conn.Write(buf)
}

// giveStream recycles the stream's own buffers once the stream ended.
func (s *downStream) giveStream() {
	s.bufCtx.Give()
}

func (s *downStream) onUpstreamResponse(resp *Response) {
	if err := s.appendResponse(resp); err != nil {
		return
	}
	s.giveStream()
}

func Serve(w io.Writer, resps []*Response) {
	c := newConnection(w)
	for _, r := range resps {
		s := &downStream{bufCtx: &bufferValue{}, conn: c}
		s.onUpstreamResponse(r)
	}
}
