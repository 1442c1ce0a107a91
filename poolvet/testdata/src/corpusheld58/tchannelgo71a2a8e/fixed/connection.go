// Source: https://github.com/uber/tchannel-go/commit/71a2a8e5652b7b18b537e31e6e3fc834d5cbe422
// ("Fix frame pooling for error responses to calls").
//
// Bug: Connection.readFrames gets a *Frame from the FramePool (a sync.Pool
// wrapper), dispatches it, and releases it unless the handler says it took
// ownership. handleError did not report anything: after decoding the error
// it forwarded the frame to the call's message exchange (a channel read by
// the caller's goroutine), and readFrames then released the same frame back
// to the pool. The next Get reused it for another incoming frame, so the
// caller read a different frame and got "unexpected frame" instead of the
// real error.
// Fix: handleError returns whether the frame should be released; it returns
// false once the frame has been forwarded, and readFrames uses that result.
//
// Fixed twin: handleError reports whether the frame must be released and
// returns false after forwarding it.
//
// Check: useafterput (reported in the bug twin at c.framePool.Release(frame)
// in readFrames; nothing to report here)
package fixed

import (
	"context"
	"errors"
	"io"
	"sync"
)

const MaxFramePayloadSize = 65535

type messageType byte

const (
	messageTypeCallRes messageType = 0x04
	messageTypeError   messageType = 0xff
)

type FrameHeader struct {
	size        uint16
	messageType messageType
	ID          uint32
}

type Frame struct {
	Header  FrameHeader
	Payload []byte
}

func NewFrame(payloadCapacity int) *Frame {
	return &Frame{Payload: make([]byte, payloadCapacity)}
}

func (f *Frame) ReadIn(r io.Reader) error {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return err
	}
	f.Header.size = uint16(hdr[0])<<8 | uint16(hdr[1])
	f.Header.messageType = messageType(hdr[2])
	f.Header.ID = uint32(hdr[4])<<24 | uint32(hdr[5])<<16 | uint32(hdr[6])<<8 | uint32(hdr[7])
	_, err := io.ReadFull(r, f.SizedPayload())
	return err
}

func (f *Frame) SizedPayload() []byte { return f.Payload[:f.Header.size] }

// A FramePool is a pool for managing and re-using frames
type FramePool interface {
	// Retrieves a new frame from the pool
	Get() *Frame
	// Releases a frame back to the pool
	Release(f *Frame)
}

type syncFramePool struct {
	pool *sync.Pool
}

func NewSyncFramePool() FramePool {
	return &syncFramePool{
		pool: &sync.Pool{New: func() interface{} { return NewFrame(MaxFramePayloadSize) }},
	}
}

func (p syncFramePool) Get() *Frame {
	return p.pool.Get().(*Frame)
}

func (p syncFramePool) Release(f *Frame) {
	p.pool.Put(f)
}

type messageExchange struct {
	recvCh chan *Frame
	ctx    context.Context
}

// forwardPeerFrame forwards a frame from a peer to the message exchange, where
// it can be pulled by whatever application thread is handling the exchange
func (mex *messageExchange) forwardPeerFrame(frame *Frame) error {
	if err := mex.ctx.Err(); err != nil {
		return err
	}
	select {
	case mex.recvCh <- frame:
		return nil
	case <-mex.ctx.Done():
		return mex.ctx.Err()
	}
}

type messageExchangeSet struct {
	mut       sync.RWMutex
	exchanges map[uint32]*messageExchange
}

func (mexset *messageExchangeSet) forwardPeerFrame(frame *Frame) error {
	mexset.mut.RLock()
	mex := mexset.exchanges[frame.Header.ID]
	mexset.mut.RUnlock()

	if mex == nil {
		// This is ok since the exchange might have expired or been cancelled
		return nil
	}
	return mex.forwardPeerFrame(frame)
}

type Connection struct {
	conn      io.Reader
	framePool FramePool
	outbound  *messageExchangeSet
	errCh     chan error
}

var errProtocol = errors.New("tchannel: peer reported protocol error")

func (c *Connection) connectionError(err error) {
	select {
	case c.errCh <- err:
	default:
	}
}

func (c *Connection) handleCallRes(frame *Frame) bool {
	if err := c.outbound.forwardPeerFrame(frame); err != nil {
		return true
	}
	return false
}

// handleError handles an error coming back from the peer. If the error is a
// protocol level error, the entire connection will be closed. If the error is
// a request specific error, it will be written to the request's response
// channel.
// The return value is whether the frame should be released immediately.
func (c *Connection) handleError(frame *Frame) bool {
	payload := frame.SizedPayload()
	if len(payload) == 0 {
		c.connectionError(io.ErrUnexpectedEOF)
		return true
	}

	if payload[0] == 0xff {
		c.connectionError(errProtocol)
		return true
	}

	if err := c.outbound.forwardPeerFrame(frame); err != nil {
		println("Failed to forward error frame to mex:", err.Error())
		return true
	}

	// If the frame was forwarded, then the other side is responsible for releasing the frame.
	return false
}

func (c *Connection) readFrames() {
	for {
		frame := c.framePool.Get()
		if err := frame.ReadIn(c.conn); err != nil {
			c.connectionError(err)
			c.framePool.Release(frame)
			return
		}

		// call req and call res messages may not want the frame released immediately.
		releaseFrame := true
		switch frame.Header.messageType {
		case messageTypeCallRes:
			releaseFrame = c.handleCallRes(frame)
		case messageTypeError:
			releaseFrame = c.handleError(frame)
		default:
			println("Received unexpected frame")
		}

		if releaseFrame {
			c.framePool.Release(frame)
		}
	}
}
