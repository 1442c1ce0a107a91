// Package bug reproduces the shape of mosn/mosn#1079
// (https://github.com/mosn/mosn/pull/1079, "Fix buffer premature recycle
// problem with async conn write", commit cf7e43d2c): the bolt codec encoded a
// frame into bytes taken with GetBytesByContext, i.e. from a byte pool whose
// buffers are tracked by the stream's buffer context and all given back to
// the pool by giveStream when the proxied stream ends. The encoded frame is
// passed to connection.Write, which (with the write loop enabled) only queues
// it on writeBufferChan; the write-loop goroutine sends it later. The stream
// ends right after the write is queued, so giveStream recycles the frame's
// bytes while the write loop may not have written them yet, and the next
// stream's encoder overwrites them: garbled frames on the wire. The fix
// allocates the encode buffer from the global IoBuffer pool and lets the
// connection give it back after the write finished.
//
// Check: useafterput (the write loop reads a frame whose bytes giveStream has
// already put back into the byte pool; the report belongs on that read).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

var bytesPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 1024)
	return &b
}}

// bufferValue tracks the pooled buffers of one stream.
type bufferValue struct {
	bufs []*[]byte
}

// GetBytesByContext returns pooled bytes that live as long as the stream.
func GetBytesByContext(bv *bufferValue, size int) *[]byte {
	p := bytesPool.Get().(*[]byte)
	if cap(*p) < size {
		b := make([]byte, size)
		p = &b
	}
	*p = (*p)[:size]
	bv.bufs = append(bv.bufs, p)
	return p
}

// Give hands every buffer of the stream back to the pool.
func (bv *bufferValue) Give() {
	for _, p := range bv.bufs {
		if cap(*p) <= 64*1024 {
			*p = (*p)[:0]
			bytesPool.Put(p)
		}
	}
	bv.bufs = bv.bufs[:0]
}

// connection writes asynchronously through its write loop.
type connection struct {
	raw             io.Writer
	writeBufferChan chan [][]byte
}

func newConnection(w io.Writer) *connection {
	c := &connection{raw: w, writeBufferChan: make(chan [][]byte, 8)}
	go c.startWriteLoop()
	return c
}

// Write queues the buffers for the write loop.
func (c *connection) Write(buffers ...[]byte) error {
	c.writeBufferChan <- buffers
	return nil
}

func (c *connection) startWriteLoop() {
	for buffers := range c.writeBufferChan {
		for _, b := range buffers {
			if _, err := c.raw.Write(b); err != nil { // want `useafterput`
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

func encodeResponse(bv *bufferValue, resp *Response) []byte {
	frameLen := responseHeaderLen + len(resp.Content)
	buf := *GetBytesByContext(bv, frameLen)
	binary.BigEndian.PutUint32(buf[0:], resp.RequestID)
	binary.BigEndian.PutUint16(buf[4:], resp.Status)
	binary.BigEndian.PutUint32(buf[6:], uint32(len(resp.Content)))
	copy(buf[responseHeaderLen:], resp.Content)
	return buf
}

// downStream is one proxied request/response exchange.
type downStream struct {
	bufCtx *bufferValue
	conn   *connection
}

func (s *downStream) appendResponse(resp *Response) error {
	buf := encodeResponse(s.bufCtx, resp)
	return s.conn.Write(buf)
}

// giveStream recycles the stream's buffers once the stream ended.
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
