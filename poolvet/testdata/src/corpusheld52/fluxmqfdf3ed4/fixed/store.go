// Source: https://github.com/absmach/fluxmq/commit/fdf3ed4a9df579b55c427d26f65a2a892ae00c23
// ("Harden buffer-backed payload ownership at store boundaries"), fluxmq MQTT/queue
// message broker. Domain note: chat-bot SDKs ran dry; this is a messaging broker.
//
// Bug: queue messages can carry their payload in a pooled, reference-counted
// buffer (Message.PayloadBuf, from mqtt.BufferPool; Release puts it back into
// the channel free list when the count drops to zero). The in-memory log
// store's Append/AppendBatch kept the caller's *Message pointer as is, so the
// log aliased the pooled buffer. When the caller then released its payload
// (msg.ReleasePayload), the buffer went back to the pool and the next Get
// overwrote the bytes the log still served (the regression test reads
// "overwritten!!!" instead of "remote-payload").
//
// Fix: Append/AppendBatch store stabilizeForStore(msg): a buffer-backed payload
// is copied into a detached shallow copy (PayloadBuf=nil, Payload=StablePayload()).
//
// Check: useafterput (the message is kept in the store's log and its payload
// buffer is then put back into the pool by ReleasePayload in appendBuffered;
// the log keeps reading the recycled memory)
package fixed

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
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
	small  chan *RefCountedBuffer // <1KB
	medium chan *RefCountedBuffer // 1KB-64KB
}

func NewBufferPoolWithCapacity(smallCap, mediumCap int) *BufferPool {
	return &BufferPool{
		small:  make(chan *RefCountedBuffer, smallCap),
		medium: make(chan *RefCountedBuffer, mediumCap),
	}
}

func (p *BufferPool) Get(size int) *RefCountedBuffer {
	var pool chan *RefCountedBuffer
	var bufSize int
	switch {
	case size <= 1024:
		pool, bufSize = p.small, 1024
	case size <= 65536:
		pool, bufSize = p.medium, 65536
	default:
		return NewRefCountedBuffer(make([]byte, size), p)
	}
	select {
	case buf := <-pool:
		buf.data = buf.data[:size]
		buf.refCount.Store(1)
		return buf
	default:
		return NewRefCountedBuffer(make([]byte, size, bufSize), p)
	}
}

func (p *BufferPool) GetWithData(data []byte) *RefCountedBuffer {
	buf := p.Get(len(data))
	copy(buf.data, data)
	return buf
}

func (p *BufferPool) Put(buf *RefCountedBuffer) {
	if buf == nil {
		return
	}
	var pool chan *RefCountedBuffer
	switch c := cap(buf.data); {
	case c <= 1024:
		pool = p.small
	case c <= 65536:
		pool = p.medium
	default:
		return
	}
	select {
	case pool <- buf:
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
}

func (m *Message) GetPayload() []byte {
	if m.PayloadBuf != nil {
		return m.PayloadBuf.Bytes()
	}
	return m.Payload
}

func (m *Message) StablePayload() []byte {
	if m.PayloadBuf != nil {
		return append([]byte(nil), m.PayloadBuf.Bytes()...)
	}
	return m.Payload
}

func (m *Message) SetPayloadFromBuffer(buf *RefCountedBuffer) {
	if m.PayloadBuf != nil {
		m.PayloadBuf.Release()
	}
	m.PayloadBuf = buf
	m.Payload = nil
}

func (m *Message) ReleasePayload() {
	if m.PayloadBuf != nil {
		m.PayloadBuf.Release()
		m.PayloadBuf = nil
	}
	m.Payload = nil
}

// ---- queue/storage/memory/log/store.go ----

var ErrQueueNotFound = errors.New("queue not found")
var ErrOffsetOutOfRange = errors.New("offset out of range")

type Store struct {
	logs sync.Map // map[string]*log
}

type log struct {
	messages []*Message
	head     uint64
	tail     uint64
	mu       sync.RWMutex
}

func (s *Store) CreateQueue(name string) {
	s.logs.Store(name, &log{messages: make([]*Message, 0, 16)})
}

func (s *Store) getQueueLog(queueName string) (*log, error) {
	v, ok := s.logs.Load(queueName)
	if !ok {
		return nil, ErrQueueNotFound
	}
	return v.(*log), nil
}

// stabilizeForStore returns a message safe for the log to retain after the
// caller releases its payload buffer. A buffer-backed payload is copied into a
// detached shallow copy so the log never aliases pooled memory; a plain payload
// is returned unchanged (no allocation).
func stabilizeForStore(msg *Message) *Message {
	if msg.PayloadBuf == nil {
		return msg
	}
	cp := *msg
	cp.PayloadBuf = nil
	cp.Payload = msg.StablePayload()
	return &cp
}

// Append adds a message to the end of a queue's log.
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

	// Append to log
	sl.messages = append(sl.messages, stabilizeForStore(msg))

	return offset, nil
}

// AppendBatch adds multiple messages to a queue's log.
func (s *Store) AppendBatch(ctx context.Context, queueName string, msgs []*Message) (uint64, error) {
	if len(msgs) == 0 {
		return 0, nil
	}

	sl, err := s.getQueueLog(queueName)
	if err != nil {
		return 0, err
	}

	sl.mu.Lock()
	defer sl.mu.Unlock()

	firstOffset := sl.tail

	for _, msg := range msgs {
		offset := sl.tail
		sl.tail++

		msg.Sequence = offset
		sl.messages = append(sl.messages, stabilizeForStore(msg))
	}

	return firstOffset, nil
}

// Read retrieves a message at a specific offset.
func (s *Store) Read(ctx context.Context, queueName string, offset uint64) (*Message, error) {
	sl, err := s.getQueueLog(queueName)
	if err != nil {
		return nil, err
	}

	sl.mu.RLock()
	defer sl.mu.RUnlock()

	if offset < sl.head || offset >= sl.tail {
		return nil, ErrOffsetOutOfRange
	}
	idx := int(offset - sl.head)
	if idx < 0 || idx >= len(sl.messages) {
		return nil, ErrOffsetOutOfRange
	}
	return sl.messages[idx], nil
}

// appendBuffered is the publisher flow of the regression test
// (TestStore_AppendCopiesPayloadBuffer): a buffer-backed message is appended
// and the publisher then drops its payload reference.
func appendBuffered(ctx context.Context, store *Store, pool *BufferPool, queueName string, data []byte) (uint64, error) {
	msg := &Message{ID: "append-buf", Topic: "$queue/" + queueName}
	msg.SetPayloadFromBuffer(pool.GetWithData(data))

	offset, err := store.Append(ctx, queueName, msg)
	if err != nil {
		msg.ReleasePayload()
		return 0, err
	}

	msg.ReleasePayload()
	return offset, nil
}
