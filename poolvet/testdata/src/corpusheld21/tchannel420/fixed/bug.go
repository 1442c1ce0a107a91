// Package bug is the fixed twin of uber/tchannel-go#420
// (https://github.com/uber/tchannel-go/pull/420, commit 2c691a1): the frame's
// ID and whether it finishes the call are computed before the frame is written
// to sendCh, after which the relay no longer touches it.
// Check: useafterput (clean).
package bug

import (
	"io"
	"sync"
)

const maxFramePayloadSize = 64 * 1024

type messageType byte

const (
	messageTypeCallReq         messageType = 0x03
	messageTypeCallRes         messageType = 0x04
	messageTypeCallReqContinue messageType = 0x13
	messageTypeCallResContinue messageType = 0x14
	messageTypeError           messageType = 0xFF
	flagMoreFragments          byte        = 0x01
)

type FrameHeader struct {
	size        uint16
	messageType messageType
	ID          uint32
}

type Frame struct {
	Header  FrameHeader
	Payload []byte
	buffer  []byte
}

func NewFrame(payloadCapacity int) *Frame {
	b := make([]byte, payloadCapacity)
	return &Frame{buffer: b, Payload: b}
}

func (f *Frame) WriteOut(w io.Writer) error {
	_, err := w.Write(f.Payload[:f.Header.size])
	return err
}

// FramePool is a pool for managing and re-using frames.
type FramePool interface {
	Get() *Frame
	Release(f *Frame)
}

type syncFramePool struct {
	pool *sync.Pool
}

func NewSyncFramePool() FramePool {
	return &syncFramePool{pool: &sync.Pool{New: func() any { return NewFrame(maxFramePayloadSize) }}}
}

func (p syncFramePool) Get() *Frame { return p.pool.Get().(*Frame) }

func (p syncFramePool) Release(f *Frame) {
	f.Header = FrameHeader{}
	f.Payload = f.buffer
	p.pool.Put(f)
}

type Connection struct {
	conn      io.Writer
	sendCh    chan *Frame
	stopCh    chan struct{}
	framePool FramePool
}

// writeFrames pulls frames from sendCh, writes them and releases them.
func (c *Connection) writeFrames() {
	for {
		select {
		case f := <-c.sendCh:
			err := f.WriteOut(c.conn)
			c.framePool.Release(f)
			if err != nil {
				return
			}
		case <-c.stopCh:
			return
		}
	}
}

type relayItem struct {
	remapID uint32
}

type relayItems struct {
	sync.RWMutex
	items map[uint32]relayItem
}

func (ri *relayItems) Get(id uint32) (relayItem, bool) {
	ri.RLock()
	item, ok := ri.items[id]
	ri.RUnlock()
	return item, ok
}

func (ri *relayItems) Delete(id uint32) {
	ri.Lock()
	delete(ri.items, id)
	ri.Unlock()
}

type frameType int

const (
	requestFrame frameType = iota
	responseFrame
)

type Relayer struct {
	outbound *relayItems
	inbound  *relayItems
	conn     *Connection
}

func (r *Relayer) receiverItems(fType frameType) *relayItems {
	if fType == requestFrame {
		return r.inbound
	}
	return r.outbound
}

func (r *Relayer) finishRelayItem(items *relayItems, id uint32) {
	items.Delete(id)
}

// finishesCall reports whether this is the last frame of a call.
func finishesCall(f *Frame) bool {
	switch f.Header.messageType {
	case messageTypeError:
		return true
	case messageTypeCallRes, messageTypeCallResContinue:
		return f.Payload[0]&flagMoreFragments == 0
	default:
		return false
	}
}

// Receive receives frames intended for this connection.
func (r *Relayer) Receive(f *Frame, fType frameType) {
	id := f.Header.ID
	items := r.receiverItems(fType)

	if _, ok := items.Get(id); !ok {
		return
	}

	// Once the frame is on sendCh we lose ownership: it may be released to
	// the frame pool at any point.
	finished := finishesCall(f)

	r.conn.sendCh <- f

	if finished {
		items := r.receiverItems(fType)
		r.finishRelayItem(items, id)
	}
}
