// Package fixed is the fix of uber/tchannel-go#122
// (https://github.com/uber/tchannel-go/pull/122): hold on to the error
// frame until its message has been read.
package fixed

import (
	"errors"
	"sync"
)

const messageTypeError = 0xff

type Frame struct {
	messageType byte
	payload     []byte
}

type FramePool struct{ p sync.Pool }

func (fp *FramePool) Get() *Frame {
	if f, ok := fp.p.Get().(*Frame); ok {
		return f
	}
	return &Frame{payload: make([]byte, 0, 64<<10)}
}

func (fp *FramePool) Release(f *Frame) {
	f.payload = f.payload[:0]
	fp.p.Put(f)
}

type Conn struct {
	framePool *FramePool
	frames    chan *Frame
}

func readError(f *Frame) error { return errors.New(string(f.payload)) }

func (c *Conn) recvMessage() error {
	frame := <-c.frames
	if frame.messageType == messageTypeError {
		err := readError(frame)
		c.framePool.Release(frame)
		return err
	}
	c.framePool.Release(frame)
	return nil
}
