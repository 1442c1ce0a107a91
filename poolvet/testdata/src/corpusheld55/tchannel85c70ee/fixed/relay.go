// Source: https://github.com/uber/tchannel-go/commit/85c70ee82d42e8261a10b43165644fc4dd895e77
// ("relay: Fix use-after-release on finishesCall(frame)").
//
// Bug: Relayer.handleNonCallReq hands the pooled *Frame to the destination
// relayer with item.destination.Receive(f, frameType). Receive sends the frame
// on the connection's sendCh, after which the writeFrames goroutine writes it
// out and releases it to the frame pool (sync.Pool). handleNonCallReq then
// calls finishesCall(f), which reads f.Header and f.Payload of a frame it no
// longer owns; with the MemProtectFramePool this crashed in
// TestRelayConcurrentCalls (relay.go:353 calling finishesCall).
//
// Fix: compute finished := finishesCall(f) before calling Receive ("Once we
// call Receive on the frame, we lose ownership of the frame").
//
// Check: useafterput (finishesCall(f) after the frame was handed to Receive,
// which sends it to sendCh where the writer releases it to the pool)
package fixed

import (
	"errors"
	"io"
	"sync"
)

type messageType byte

const (
	messageTypeCallReq         messageType = 0x03
	messageTypeCallRes         messageType = 0x04
	messageTypeCallResContinue messageType = 0x14
	messageTypeError           messageType = 0xff
)

const (
	_flagsIndex          = 0
	hasMoreFragmentsFlag = 0x01
	FrameHeaderSize      = 16
	MaxFramePayloadSize  = 0xFFFF - FrameHeaderSize
)

type FrameHeader struct {
	size        uint16
	messageType messageType
	ID          uint32
}

type Frame struct {
	buffer []byte
	Header FrameHeader
	// The payload for the frame
	Payload []byte
}

func NewFrame(payloadCapacity int) *Frame {
	f := &Frame{}
	f.buffer = make([]byte, payloadCapacity+FrameHeaderSize)
	f.Payload = f.buffer[FrameHeaderSize:]
	return f
}

func (f *Frame) messageType() messageType { return f.Header.messageType }

func (f *Frame) WriteOut(w io.Writer) error {
	_, err := w.Write(f.buffer[:FrameHeaderSize+int(f.Header.size)])
	return err
}

// A FramePool is a pool for managing and re-using frames
type FramePool interface {
	Get() *Frame
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

func (p syncFramePool) Get() *Frame      { return p.pool.Get().(*Frame) }
func (p syncFramePool) Release(f *Frame) { p.pool.Put(f) }

type Connection struct {
	conn      io.Writer
	framePool FramePool
	sendCh    chan *Frame
	relay     *Relayer
}

// writeFrames is the main loop that pulls frames from the send channel and
// writes them to the connection.
func (c *Connection) writeFrames() {
	for f := range c.sendCh {
		err := f.WriteOut(c.conn)
		c.framePool.Release(f)
		if err != nil {
			return
		}
	}
}

type frameType int

const (
	requestFrame  frameType = 0
	responseFrame frameType = 1
)

type relayItem struct {
	remapID     uint32
	destination *Relayer
	tomb        bool
}

type relayItems struct {
	sync.RWMutex
	items map[uint32]relayItem
}

func (r *relayItems) Get(id uint32) (relayItem, bool) {
	r.RLock()
	item, ok := r.items[id]
	r.RUnlock()
	return item, ok
}

func (r *relayItems) Delete(id uint32) {
	r.Lock()
	delete(r.items, id)
	r.Unlock()
}

type Relayer struct {
	outbound *relayItems
	inbound  *relayItems
	conn     *Connection
}

// finishesCall checks whether this frame is the last one we should expect for
// this RPC req-res.
func finishesCall(f *Frame) bool {
	switch f.messageType() {
	case messageTypeError:
		return true
	case messageTypeCallRes, messageTypeCallResContinue:
		flags := f.Payload[_flagsIndex]
		return flags&hasMoreFragmentsFlag == 0
	default:
		return false
	}
}

func (r *Relayer) receiverItems(fType frameType) *relayItems {
	if fType == requestFrame {
		return r.inbound
	}
	return r.outbound
}

// Receive receives frames intended for this connection.
func (r *Relayer) Receive(f *Frame, fType frameType) {
	id := f.Header.ID
	items := r.receiverItems(fType)
	if _, ok := items.Get(id); !ok {
		return
	}

	// When we write the frame to sendCh, we lose ownership of the frame, and it
	// may be released to the frame pool at any point.
	finished := finishesCall(f)

	r.conn.sendCh <- f

	if finished {
		items.Delete(id)
	}
}

// Handle all frames except messageTypeCallReq.
func (r *Relayer) handleNonCallReq(f *Frame) error {
	frameType := requestFrame
	items := r.outbound
	if f.messageType() == messageTypeCallRes || f.messageType() == messageTypeCallResContinue || f.messageType() == messageTypeError {
		frameType = responseFrame
		items = r.inbound
	}

	item, ok := items.Get(f.Header.ID)
	if !ok {
		return errors.New("non-callReq for inactive ID")
	}
	if item.tomb {
		return nil
	}
	originalID := f.Header.ID
	f.Header.ID = item.remapID

	// Once we call Receive on the frame, we lose ownership of the frame.
	finished := finishesCall(f)

	item.destination.Receive(f, frameType)

	if finished {
		items.Delete(originalID)
	}
	return nil
}
