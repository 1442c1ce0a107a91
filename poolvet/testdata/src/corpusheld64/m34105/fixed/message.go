// Source: https://github.com/m3db/m3/pull/4105
// (commit 1de8f33de923fbfef388e80d8b94292e156bc897, "[m3msg] Message pooling cleanup")
//
// Bug: the m3msg producer wraps each *producer.RefCountedMessage in a pooled
// *message. When a message is removed from the writer queue (or rejected in
// Write), messageWriterImpl.close calls message.Close() to reset it and puts
// it back into the message pool. Close reset the retry counters, the acked
// flag and the proto value, but forgot the embedded *RefCountedMessage
// pointer, so every pooled message kept the last user's ref-counted message
// (and its payload bytes) reachable while it sat in the pool: a memory leak
// the PR describes as "message wrapper did not clear
// message.RefCountedMessage pointer".
//
// Fix: Close sets m.RefCountedMessage = nil (the PR also replaced the
// ObjectPool-backed messagePool with a thin sync.Pool wrapper).
//
// Check: noreset (at message.Close, the project's reset function that forgets
// the RefCountedMessage field before messageWriterImpl.close puts it back)
package fixed

import (
	"sync"
	"sync/atomic"
)

// Message is the producer-side message interface.
type Message interface {
	Bytes() []byte
	Size() int
	Finalize()
}

// RefCountedMessage is a reference counted message.
type RefCountedMessage struct {
	Message
	size                uint64
	refCount            int32
	isDroppedOrConsumed atomic.Bool
	mu                  sync.RWMutex
}

// NewRefCountedMessage creates RefCountedMessage.
func NewRefCountedMessage(m Message) *RefCountedMessage {
	return &RefCountedMessage{Message: m, size: uint64(m.Size())}
}

// IncRef increments the ref count.
func (rm *RefCountedMessage) IncRef() { atomic.AddInt32(&rm.refCount, 1) }

// DecRef decrements the ref count and finalizes the message at zero.
func (rm *RefCountedMessage) DecRef() {
	rc := atomic.AddInt32(&rm.refCount, -1)
	if rc == 0 {
		rm.finalize()
	}
	if rc < 0 {
		panic("invalid ref count")
	}
}

// IsDroppedOrConsumed returns true if the message has been dropped or consumed.
func (rm *RefCountedMessage) IsDroppedOrConsumed() bool { return rm.isDroppedOrConsumed.Load() }

func (rm *RefCountedMessage) finalize() bool {
	rm.mu.Lock()
	if rm.isDroppedOrConsumed.Load() {
		rm.mu.Unlock()
		return false
	}
	rm.isDroppedOrConsumed.Store(true)
	rm.mu.Unlock()
	rm.Message.Finalize()
	return true
}

type metadata struct {
	shard uint64
	id    uint64
}

type pbMessage struct {
	Shard uint64
	ID    uint64
	Value []byte
}

type message struct {
	*RefCountedMessage

	pb           pbMessage
	meta         metadata
	initNanos    int64
	retryAtNanos int64
	retried      int
	isAcked      atomic.Bool
}

func newMessage() *message {
	return &message{
		retryAtNanos: 0,
		retried:      0,
	}
}

// Set sets the message.
func (m *message) Set(meta metadata, rm *RefCountedMessage, initNanos int64) {
	m.initNanos = initNanos
	m.meta = meta
	m.RefCountedMessage = rm
	m.ToProto(&m.pb)
}

// Close resets the states of the message.
func (m *message) Close() {
	m.RefCountedMessage = nil
	m.retryAtNanos = 0
	m.retried = 0
	m.isAcked.Store(false)
	m.ResetProto(&m.pb)
}

// Ack acknowledges the message.
func (m *message) Ack() {
	m.isAcked.Store(true)
	m.RefCountedMessage.DecRef()
}

// IsAcked returns true if the message has been acked.
func (m *message) IsAcked() bool { return m.isAcked.Load() }

func (m *message) ToProto(pb *pbMessage) {
	pb.Shard = m.meta.shard
	pb.ID = m.meta.id
	pb.Value = m.RefCountedMessage.Bytes()
}

func (m *message) ResetProto(pb *pbMessage) {
	pb.Value = nil
}
