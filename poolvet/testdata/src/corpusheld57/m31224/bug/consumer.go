// Source: https://github.com/m3db/m3/pull/1224
// ("m3msg: Add message pool max reuse size to avoid large messages
// overwhelming the pool"), commit a7119b439e6ae1caa60467df8fe79ac7e94e63c7;
// files src/msg/consumer/pools.go and src/msg/consumer/consumer.go.
//
// Bug: the m3msg consumer decodes every incoming message into a pooled
// *message whose Value slice is reused (reset only truncates it to [:0]).
// messagePool.Put returned every message to the m3x object pool
// unconditionally, so a Value grown by one very large message stayed pinned
// in the pool forever and the pool filled up with huge buffers.
//
// Fix: MessagePoolOptions gained MaxBufferReuseSize and messagePool.Put
// drops messages whose buffer capacity exceeds it instead of pooling them.
//
// Check: unbounded (messagePool.Put puts a message whose Value buffer grows
// to the largest decoded message back into the pool with no size limit)
package bug

import (
	"encoding/binary"
	"errors"
	"io"
)

// ObjectPool is a trimmed copy of m3x pool.ObjectPool (channel backed).
type ObjectPool interface {
	Init(alloc func() interface{})
	Get() interface{}
	Put(obj interface{})
}

type objectPool struct {
	values chan interface{}
	alloc  func() interface{}
}

func NewObjectPool(size int) ObjectPool {
	return &objectPool{values: make(chan interface{}, size)}
}

func (p *objectPool) Init(alloc func() interface{}) {
	p.alloc = alloc
	for i := 0; i < cap(p.values); i++ {
		p.values <- alloc()
	}
}

func (p *objectPool) Get() interface{} {
	select {
	case v := <-p.values:
		return v
	default:
		return p.alloc()
	}
}

func (p *objectPool) Put(obj interface{}) {
	select {
	case p.values <- obj:
	default:
	}
}

// pools.go

type messagePool struct {
	ObjectPool
}

func newMessagePool(size int) *messagePool {
	return &messagePool{ObjectPool: NewObjectPool(size)}
}

func (p *messagePool) Init() {
	p.ObjectPool.Init(func() interface{} {
		return newMessage(p)
	})
}

func (p *messagePool) Get() *message {
	return p.ObjectPool.Get().(*message)
}

func (p *messagePool) Put(m *message) {
	p.ObjectPool.Put(m) // want `unbounded`
}

// consumer.go

type Metadata struct {
	Shard uint64
	Id    uint64
}

type Message struct {
	Metadata Metadata
	Value    []byte
}

var errDecode = errors.New("invalid message")

type decoder struct {
	r io.Reader
}

// Decode reads a length-prefixed message into m, reusing m.Value.
func (d *decoder) Decode(m *message) error {
	var hdr [20]byte
	if _, err := io.ReadFull(d.r, hdr[:]); err != nil {
		return err
	}
	m.Metadata.Shard = binary.BigEndian.Uint64(hdr[0:8])
	m.Metadata.Id = binary.BigEndian.Uint64(hdr[8:16])
	n := int(binary.BigEndian.Uint32(hdr[16:20]))
	if n < 0 {
		return errDecode
	}
	if cap(m.Value) < n {
		m.Value = make([]byte, n)
	}
	m.Value = m.Value[:n]
	_, err := io.ReadFull(d.r, m.Value)
	return err
}

type consumer struct {
	decoder *decoder
	mPool   *messagePool
	acks    []Metadata
}

func newConsumer(r io.Reader, poolSize int) *consumer {
	mPool := newMessagePool(poolSize)
	mPool.Init()
	return &consumer{decoder: &decoder{r: r}, mPool: mPool}
}

func (c *consumer) Message() (*message, error) {
	m := c.mPool.Get()
	m.reset(c)
	if err := c.decoder.Decode(m); err != nil {
		c.mPool.Put(m)
		return nil, err
	}
	return m, nil
}

func (c *consumer) tryAck(m Metadata) {
	c.acks = append(c.acks, m)
}

type message struct {
	Message

	mPool *messagePool
	c     *consumer
}

func newMessage(p *messagePool) *message {
	return &message{mPool: p}
}

func (m *message) Bytes() []byte {
	return m.Value
}

func (m *message) Ack() {
	m.c.tryAck(m.Metadata)
	if m.mPool != nil {
		m.mPool.Put(m)
	}
}

func (m *message) reset(c *consumer) {
	m.c = c
	resetProto(&m.Message)
}

func resetProto(m *Message) {
	m.Metadata.Id = 0
	m.Metadata.Shard = 0
	m.Value = m.Value[:0]
}
