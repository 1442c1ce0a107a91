// Package fixed is the fixed twin of grpc/grpc-go#3307
// (https://github.com/grpc/grpc-go/issues/3307): the buffer reuse of
// grpc/grpc-go#3167 was reverted, so Marshal allocates the slice it returns
// and SendMsg no longer gives it back while the loopy writer may still hold
// it.
package fixed

import (
	"encoding/binary"
	"io"
)

type Message struct {
	Name    string
	Payload []byte
}

type codec struct{}

// Marshal encodes m into a slice of its own.
func (codec) Marshal(m *Message) ([]byte, error) {
	b := make([]byte, 0, len(m.Name)+1+len(m.Payload))
	b = append(b, m.Name...)
	b = append(b, 0)
	b = append(b, m.Payload...)
	return b, nil
}

type dataFrame struct {
	h []byte
	d []byte
}

// controlBuffer queues frames for the loopy writer.
type controlBuffer struct {
	ch chan *dataFrame
}

func (c *controlBuffer) put(f *dataFrame) {
	c.ch <- f
}

// loopyWriter writes queued frames to the connection in its own goroutine.
type loopyWriter struct {
	cbuf *controlBuffer
	conn io.Writer
}

func (l *loopyWriter) run() {
	for f := range l.cbuf.ch {
		l.conn.Write(f.h)
		l.conn.Write(f.d)
	}
}

type http2Client struct {
	cbuf *controlBuffer
}

// Write queues hdr and data; it returns before they are written.
func (t *http2Client) Write(hdr, data []byte) error {
	t.cbuf.put(&dataFrame{h: hdr, d: data})
	return nil
}

func msgHeader(data []byte) []byte {
	hdr := make([]byte, 5)
	binary.BigEndian.PutUint32(hdr[1:], uint32(len(data)))
	return hdr
}

type clientStream struct {
	t     *http2Client
	codec codec
}

func (cs *clientStream) SendMsg(m *Message) error {
	data, err := cs.codec.Marshal(m)
	if err != nil {
		return err
	}
	hdr := msgHeader(data)
	return cs.t.Write(hdr, data)
}
