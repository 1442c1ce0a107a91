// Package fixed is the fixed twin of corpusheld13/gnet132: Decode copies
// the frame out of the pooled byte buffer before the connection puts that
// buffer back.
package fixed

import "sync"

type ByteBuffer struct {
	B []byte
}

func (b *ByteBuffer) Bytes() []byte { return b.B }

const maxPooledSize = 64 << 10

var bbPool = sync.Pool{New: func() any { return new(ByteBuffer) }}

func Get() *ByteBuffer { return bbPool.Get().(*ByteBuffer) }

func Put(b *ByteBuffer) {
	if cap(b.B) > maxPooledSize {
		return
	}
	b.B = b.B[:0]
	bbPool.Put(b)
}

type ringBuffer struct {
	data []byte
}

func (r *ringBuffer) IsEmpty() bool { return len(r.data) == 0 }

func (r *ringBuffer) Reset() { r.data = r.data[:0] }

// WithByteBuffer copies the ring's content, after head, into a pooled
// byte buffer.
func (r *ringBuffer) WithByteBuffer(head []byte) *ByteBuffer {
	bb := Get()
	bb.B = append(bb.B, head...)
	bb.B = append(bb.B, r.data...)
	return bb
}

type conn struct {
	buffer        []byte
	inboundBuffer ringBuffer
	byteBuffer    *ByteBuffer
}

func (c *conn) Read() []byte {
	if c.inboundBuffer.IsEmpty() {
		return c.buffer
	}
	c.byteBuffer = c.inboundBuffer.WithByteBuffer(c.buffer)
	return c.byteBuffer.Bytes()
}

func (c *conn) ResetBuffer() {
	c.buffer = c.buffer[:0]
	c.inboundBuffer.Reset()
	if c.byteBuffer != nil {
		Put(c.byteBuffer)
	}
	c.byteBuffer = nil
}

type BuiltInFrameCodec struct{}

func (cc *BuiltInFrameCodec) Decode(c *conn) ([]byte, error) {
	buf := c.Read()
	if len(buf) == 0 {
		return nil, nil
	}
	frame := append([]byte(nil), buf...)
	c.ResetBuffer()
	return frame, nil
}
