// Package bug reproduces the shape of uber/tchannel-go#122
// (https://github.com/uber/tchannel-go/pull/122): error frames were
// released to the frame pool too early and overwritten by the next frame,
// so callers saw "unexpected frame" errors instead of the error message
// the frame carried.
//
// Check: useafterput (the frame is read after it went back to its pool
// through the pool's Release method).
package bug

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
		c.framePool.Release(frame)
		return readError(frame) // want `used after|useafterput`
	}
	c.framePool.Release(frame)
	return nil
}
