// Source: https://github.com/absmach/fluxmq/commit/06d76380567779fbbe5841750b44a1a13d841a1a
// ("Preserve buffer-backed payloads across serialization"), fluxmq MQTT/queue
// message broker. Domain note: chat-bot SDKs ran dry; this is a messaging broker.
//
// Bug: a queue message can carry its payload in a pooled, reference-counted
// buffer (PayloadBuf; Release puts it back into the BufferPool free list when
// the count reaches zero). moveToDLQ built the dead-letter copy with
// Payload: msg.GetPayload(), i.e. the bytes of the source message's pooled
// buffer, and appended it to the DLQ log, which keeps it indefinitely. When the
// source queue is later truncated, Truncate releases the source message's
// payload buffer back to the pool; the DLQ message still points into it and is
// corrupted when the pool hands the buffer out again ("Messages that outlive
// the buffer (cross-node routing, DLQ moves) aliased pooled memory and could be
// corrupted on buffer reuse").
//
// Fix: Message.StablePayload copies the bytes out when the payload is
// buffer-backed; moveToDLQ uses Payload: msg.StablePayload().
//
// Check: useafterput (the DLQ log keeps a slice of the source message's pooled
// buffer; the buffer is put back by ReleasePayload in Truncate while the DLQ
// message still uses it)
package fixed

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// ---- mqtt/refbuffer.go ----

type RefCountedBuffer struct {
	data     []byte
	refCount atomic.Int32
	pool     *BufferPool
}

func NewRefCountedBuffer(data []byte, pool *BufferPool) *RefCountedBuffer {
	buf := &RefCountedBuffer{data: data, pool: pool}
	buf.refCount.Store(1)
	return buf
}

func (r *RefCountedBuffer) Bytes() []byte {
	if r == nil {
		return nil
	}
	return r.data
}

func (r *RefCountedBuffer) Release() {
	if r == nil {
		return
	}
	newCount := r.refCount.Add(-1)
	if newCount == 0 {
		if r.pool != nil {
			r.pool.Put(r)
		}
		return
	}
	if newCount < 0 {
		r.refCount.Store(0)
	}
}

type BufferPool struct {
	small chan *RefCountedBuffer // <1KB
}

func (p *BufferPool) Get(size int) *RefCountedBuffer {
	if size > 1024 {
		return NewRefCountedBuffer(make([]byte, size), p)
	}
	select {
	case buf := <-p.small:
		buf.data = buf.data[:size]
		buf.refCount.Store(1)
		return buf
	default:
		return NewRefCountedBuffer(make([]byte, size, 1024), p)
	}
}

func (p *BufferPool) Put(buf *RefCountedBuffer) {
	if buf == nil || cap(buf.data) > 1024 {
		return
	}
	select {
	case p.small <- buf:
	default:
	}
}

// ---- queue/types/message.go ----

type Message struct {
	ID         string
	Payload    []byte
	PayloadBuf *RefCountedBuffer
	Topic      string
	Sequence   uint64
	Properties map[string]string
	State      string
	CreatedAt  time.Time
}

// GetPayload returns the message payload, preferring PayloadBuf if available.
func (m *Message) GetPayload() []byte {
	if m.PayloadBuf != nil {
		return m.PayloadBuf.Bytes()
	}
	return m.Payload
}

// StablePayload returns the effective payload as a slice that stays valid
// after ReleasePayload. Buffer-backed payloads are copied out of the pooled
// buffer; plain payloads are returned as-is without allocating.
func (m *Message) StablePayload() []byte {
	if m.PayloadBuf != nil {
		return append([]byte(nil), m.PayloadBuf.Bytes()...)
	}
	return m.Payload
}

// ReleasePayload releases the buffer reference if PayloadBuf is set.
func (m *Message) ReleasePayload() {
	if m.PayloadBuf != nil {
		m.PayloadBuf.Release()
		m.PayloadBuf = nil
	}
	m.Payload = nil
}

// ---- queue/storage/memory/log/store.go ----

var ErrQueueNotFound = errors.New("queue not found")

type Store struct {
	logs sync.Map // map[string]*log
}

type log struct {
	messages []*Message
	head     uint64
	tail     uint64
	mu       sync.RWMutex
}

func (s *Store) CreateQueue(ctx context.Context, name string) error {
	s.logs.LoadOrStore(name, &log{})
	return nil
}

func (s *Store) getQueueLog(queueName string) (*log, error) {
	v, ok := s.logs.Load(queueName)
	if !ok {
		return nil, ErrQueueNotFound
	}
	return v.(*log), nil
}

func (s *Store) Append(ctx context.Context, queueName string, msg *Message) (uint64, error) {
	sl, err := s.getQueueLog(queueName)
	if err != nil {
		return 0, err
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()

	offset := sl.tail
	sl.tail++
	msg.Sequence = offset
	sl.messages = append(sl.messages, msg)
	return offset, nil
}

// Truncate removes messages before minOffset.
func (s *Store) Truncate(ctx context.Context, queueName string, minOffset uint64) error {
	sl, err := s.getQueueLog(queueName)
	if err != nil {
		return err
	}

	sl.mu.Lock()
	defer sl.mu.Unlock()

	if minOffset <= sl.head {
		return nil
	}
	if minOffset > sl.tail {
		minOffset = sl.tail
	}

	removeCount := int(minOffset - sl.head)
	if removeCount > len(sl.messages) {
		removeCount = len(sl.messages)
	}

	// Release payload buffers for removed messages
	for i := 0; i < removeCount; i++ {
		if sl.messages[i] != nil {
			sl.messages[i].ReleasePayload()
		}
	}

	sl.messages = sl.messages[removeCount:]
	sl.head = minOffset
	return nil
}

// ---- queue/manager.go ----

type Manager struct {
	queueStore *Store
}

// moveToDLQ publishes a poison message to the dead-letter queue.
func (m *Manager) moveToDLQ(ctx context.Context, queueName, groupID string, msg *Message, deliveryCount int, dlqPrefix string) {
	dlqQueueName := dlqPrefix + queueName
	if _, err := m.queueStore.getQueueLog(dlqQueueName); err != nil {
		if createErr := m.queueStore.CreateQueue(ctx, dlqQueueName); createErr != nil {
			return
		}
	}

	props := make(map[string]string, len(msg.Properties)+4)
	for k, v := range msg.Properties {
		props[k] = v
	}
	props["_dlq_original_queue"] = queueName
	props["_dlq_original_topic"] = msg.Topic
	props["_dlq_group"] = groupID
	props["_dlq_delivery_count"] = strconv.Itoa(deliveryCount)

	dlqMsg := &Message{
		ID:         msg.ID + "-dlq",
		Payload:    msg.StablePayload(),
		Topic:      dlqQueueName,
		Properties: props,
		State:      "dlq",
		CreatedAt:  time.Now(),
	}

	if _, err := m.queueStore.Append(ctx, dlqQueueName, dlqMsg); err != nil {
		return
	}
}
