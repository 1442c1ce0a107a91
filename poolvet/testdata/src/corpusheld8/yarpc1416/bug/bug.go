// Package bug reproduces the shape of yarpc/yarpc-go#1416
// (https://github.com/yarpc/yarpc-go/pull/1416, issue #1415): the gRPC
// transport wrote the handler's response into a pooled buffer, passed its
// bytes through a passthrough codec to SendMsg and returned the buffer to the
// pool when the handler returned. SendMsg only queues the message; gRPC's
// writer goroutine sends it later, possibly after the buffer was reused by
// another call, which the race detector caught in TestDataRace.
//
// Check: useafterput (hand-off: the buffer's bytes go to a method of the
// package that queues them on a channel for a writer goroutine; with a
// deferred Put the docs put the report at the hand-off).
package bug

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

const maxPooledBuf = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuf {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

type dataFrame struct {
	streamID uint32
	data     []byte
}

// serverStream queues outgoing messages for the connection's writer.
type serverStream struct {
	id         uint32
	controlBuf chan dataFrame
}

// SendMsg hands m to the writer goroutine and returns without waiting. The
// passthrough codec means m is sent as is.
func (s *serverStream) SendMsg(m any) error {
	data, ok := m.([]byte)
	if !ok {
		return errors.New("passthrough codec: message is not []byte")
	}
	s.controlBuf <- dataFrame{streamID: s.id, data: data}
	return nil
}

// writeLoop is the connection's writer goroutine.
func writeLoop(w io.Writer, controlBuf <-chan dataFrame) error {
	for f := range controlBuf {
		if _, err := w.Write(f.data); err != nil {
			return err
		}
	}
	return nil
}

type handler struct {
	stream *serverStream
	call   func(req []byte, res *bytes.Buffer) error
}

func (h *handler) handleUnary(req []byte) error {
	resBuf := getBuffer()
	defer putBuffer(resBuf)

	if err := h.call(req, resBuf); err != nil {
		return err
	}
	return h.stream.SendMsg(resBuf.Bytes()) // want `useafterput`
}
