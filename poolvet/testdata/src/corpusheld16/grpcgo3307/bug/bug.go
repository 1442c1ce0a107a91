// Package bug reproduces the shape of grpc/grpc-go#3307
// (https://github.com/grpc/grpc-go/issues/3307; the change it reverted is
// https://github.com/grpc/grpc-go/pull/3167, and
// https://github.com/grpc/grpc-go/issues/3458 explains why): SendMsg
// marshalled the message into a pooled byte slice, handed it to the
// transport, and gave it back to the codec's pool (ReturnBuffer) as soon as
// Write returned. But Write only queues the frame for the loopy writer
// goroutine, which may read the slice later, while the next Marshal already
// writes into it: a data race on outgoing messages.
//
// Check: useafterput (hand-off: the slice is queued on a channel for
// another goroutine, then put back without waiting; reported at the Put
// wrapper call).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

const maxPooledMsg = 1 << 20

var byteSlicePool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

type Message struct {
	Name    string
	Payload []byte
}

type codec struct{}

// Marshal encodes m into a slice taken from the pool.
func (codec) Marshal(m *Message) ([]byte, error) {
	bp := byteSlicePool.Get().(*[]byte)
	b := (*bp)[:0]
	b = append(b, m.Name...)
	b = append(b, 0)
	b = append(b, m.Payload...)
	return b, nil
}

// ReturnBuffer gives a slice produced by Marshal back to the pool.
func (codec) ReturnBuffer(data []byte) {
	if cap(data) > maxPooledMsg {
		return
	}
	data = data[:0]
	byteSlicePool.Put(&data)
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
	t             *http2Client
	codec         codec
	returnBuffers bool
}

func (cs *clientStream) SendMsg(m *Message) error {
	data, err := cs.codec.Marshal(m)
	if err != nil {
		return err
	}
	hdr := msgHeader(data)
	err = cs.t.Write(hdr, data)
	if cs.returnBuffers {
		cs.codec.ReturnBuffer(data) // want `useafterput`
	}
	return err
}
