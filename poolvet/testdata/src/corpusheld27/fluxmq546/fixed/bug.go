// Package bug reproduces the shape of absmach/fluxmq#546
// (https://github.com/absmach/fluxmq/pull/546, commit
// https://github.com/absmach/fluxmq/commit/d75a6912de95e554ceb4972ae70c238fa02eb58a,
// "Keep PUBLISH payload buffers alive until the packet is serialized"): a message's
// payload lives in a reference-counted buffer that goes back to a sync.Pool when the
// last reference is released. EncodePublish built a pooled PUBLISH packet whose
// Payload pointed into that buffer without taking a reference, and the packet was
// queued for the connection's send loop. For QoS 0 the broker then released the
// message payload right away, so the buffer could be handed to another publish and
// overwritten before the send loop serialized the queued packet. The fix gives the
// packet its own reference, dropped when the packet itself is released.
//
// Check: useafterput (a view of the pooled payload is queued for the send loop and
// the payload is released before the loop reads it; report at the hand-off).
package bug

import (
	"bufio"
	"errors"
	"sync"
	"sync/atomic"
)

const maxPooledPayload = 64 << 10

// RefCountedBuffer is a pooled payload buffer shared by reference counting.
type RefCountedBuffer struct {
	data []byte
	refs atomic.Int32
}

var bufferPool = sync.Pool{
	New: func() any { return &RefCountedBuffer{data: make([]byte, 0, 1024)} },
}

func GetBufferWithData(p []byte) *RefCountedBuffer {
	b := bufferPool.Get().(*RefCountedBuffer)
	b.data = append(b.data[:0], p...)
	b.refs.Store(1)
	return b
}

func (b *RefCountedBuffer) Bytes() []byte { return b.data }

func (b *RefCountedBuffer) Retain() { b.refs.Add(1) }

func (b *RefCountedBuffer) Release() {
	if b.refs.Add(-1) != 0 {
		return
	}
	if cap(b.data) > maxPooledPayload {
		return
	}
	b.data = b.data[:0]
	bufferPool.Put(b)
}

type Message struct {
	Topic      string
	QoS        byte
	PacketID   uint16
	PayloadBuf *RefCountedBuffer
}

func (m *Message) GetPayload() []byte {
	if m.PayloadBuf != nil {
		return m.PayloadBuf.Bytes()
	}
	return nil
}

func (m *Message) ReleasePayload() {
	if m.PayloadBuf != nil {
		m.PayloadBuf.Release()
		m.PayloadBuf = nil
	}
}

// Publish is a pooled MQTT PUBLISH packet. PayloadRef, when non-nil, owns the
// memory Payload points into and is released together with the packet.
type Publish struct {
	TopicName  string
	ID         uint16
	QoS        byte
	PayloadRef *RefCountedBuffer
	Payload    []byte
}

var publishPool = sync.Pool{New: func() any { return new(Publish) }}

func AcquirePublish() *Publish { return publishPool.Get().(*Publish) }

// ReleasePublish returns a Publish packet to the pool after resetting it.
func ReleasePublish(p *Publish) {
	if p == nil {
		return
	}
	if p.PayloadRef != nil {
		p.PayloadRef.Release()
	}
	*p = Publish{}
	publishPool.Put(p)
}

func (p *Publish) Pack(w *bufio.Writer) error {
	if err := w.WriteByte(0x30 | p.QoS<<1); err != nil {
		return err
	}
	if _, err := w.WriteString(p.TopicName); err != nil {
		return err
	}
	_, err := w.Write(p.Payload)
	return err
}

// EncodePublish builds the PUBLISH packet for msg.
func EncodePublish(msg *Message, packetID uint16) *Publish {
	p := AcquirePublish()
	p.TopicName = msg.Topic
	p.QoS = msg.QoS
	p.ID = packetID
	if msg.PayloadBuf != nil {
		// the packet holds its own reference until it is released
		msg.PayloadBuf.Retain()
		p.PayloadRef = msg.PayloadBuf
	}
	p.Payload = msg.GetPayload()
	return p
}

var ErrSendQueueFull = errors.New("send queue full")

type sendItem struct {
	pkt    *Publish
	onSent func()
}

type Connection struct {
	dataCh chan sendItem
	w      *bufio.Writer
}

// TryWriteDataPacket queues pkt for the send loop without blocking.
func (c *Connection) TryWriteDataPacket(pkt *Publish, onSent func()) error {
	select {
	case c.dataCh <- sendItem{pkt: pkt, onSent: onSent}:
		return nil
	default:
		return ErrSendQueueFull
	}
}

func (c *Connection) sendLoop() {
	for item := range c.dataCh {
		_ = item.pkt.Pack(c.w)
		_ = c.w.Flush()
		ReleasePublish(item.pkt)
		if item.onSent != nil {
			item.onSent()
		}
	}
}

type Broker struct {
	sentBytes atomic.Uint64
}

// DeliverMessage encodes msg and writes it to conn. The send loop releases the
// packet after Pack.
func (b *Broker) DeliverMessage(conn *Connection, msg *Message, onSent func()) error {
	b.sentBytes.Add(uint64(len(msg.GetPayload())))
	pub := EncodePublish(msg, msg.PacketID)
	err := conn.TryWriteDataPacket(pub, onSent)
	if err != nil {
		ReleasePublish(pub)
	}
	return err
}

// deliverQoS0 sends a fire-and-forget message and drops the broker's reference.
func (b *Broker) deliverQoS0(conn *Connection, msg *Message) error {
	err := b.DeliverMessage(conn, msg, nil)
	msg.ReleasePayload()
	return err
}
