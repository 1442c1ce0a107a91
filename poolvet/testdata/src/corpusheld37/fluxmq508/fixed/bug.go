// Package bug reproduces the shape of absmach/fluxmq#508
// (https://github.com/absmach/fluxmq/pull/508, fix commit ee9d663c1 "make
// inbound inflight admission atomic"). The pooled storage.Message gained two
// fields, InflightDirection and InflightState, that are set when a message is
// persisted or restored as an inflight entry. Message.Reset, which
// ReleaseMessage calls before putting the message back, clears every other
// field but not these two, so the next AcquireMessage could hand out a message
// that still claims to be an inbound QoS 2 entry in some delivery phase. The
// fix adds both fields to Reset (with a pool-reuse test).
// Fixed twin: Reset also clears the inflight metadata.
package bug

import (
	"sync"
	"sync/atomic"
	"time"
)

// RefCountedBuffer is a shared payload buffer.
type RefCountedBuffer struct {
	data     []byte
	refCount atomic.Int32
}

// Bytes returns the payload.
func (r *RefCountedBuffer) Bytes() []byte { return r.data }

// Release drops one reference; the last one drops the data.
func (r *RefCountedBuffer) Release() {
	if r.refCount.Add(-1) == 0 {
		r.data = nil
	}
}

// Message is a stored MQTT message.
type Message struct {
	Expiry          time.Time
	PublishTime     time.Time
	Payload         []byte
	PayloadBuf      *RefCountedBuffer
	CorrelationData []byte
	SubscriptionIDs []uint32
	Topic           string
	ClientID        string
	ContentType     string
	ResponseTopic   string
	Properties      map[string]string
	UserProperties  map[string]string
	MessageExpiry   *uint32
	PayloadFormat   *byte
	PacketID        uint16
	QoS             byte
	Retain          bool

	// Inflight metadata, set only for persisted inflight entries.
	InflightDirection byte
	InflightState     byte
}

var messagePool = sync.Pool{
	New: func() any {
		return &Message{}
	},
}

// AcquireMessage gets a Message from the pool.
func AcquireMessage() *Message {
	return messagePool.Get().(*Message)
}

// ReleaseMessage resets m and returns it to the pool.
func ReleaseMessage(m *Message) {
	if m == nil {
		return
	}
	m.Reset()
	messagePool.Put(m)
}

// Reset clears the message for reuse.
func (m *Message) Reset() {
	if m.PayloadBuf != nil {
		m.PayloadBuf.Release()
		m.PayloadBuf = nil
	}

	m.Expiry = time.Time{}
	m.PublishTime = time.Time{}

	m.Payload = nil
	m.CorrelationData = nil
	m.SubscriptionIDs = nil

	m.Topic = ""
	m.ClientID = ""
	m.ContentType = ""
	m.ResponseTopic = ""

	m.Properties = nil
	m.UserProperties = nil

	m.MessageExpiry = nil
	m.PayloadFormat = nil

	m.PacketID = 0
	m.QoS = 0
	m.Retain = false
	m.InflightDirection = 0
	m.InflightState = 0
}

// restoreInflight rebuilds an inflight entry from persisted fields.
func restoreInflight(topic string, payload []byte, packetID uint16, qos, direction, state byte) *Message {
	msg := AcquireMessage()
	msg.Topic = topic
	msg.Payload = append([]byte(nil), payload...)
	msg.PacketID = packetID
	msg.QoS = qos
	msg.InflightDirection = direction
	msg.InflightState = state
	return msg
}
