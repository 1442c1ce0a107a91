package fixed

import (
	"container/list"
	"sync"
	"time"
)

type messageWriterImpl struct {
	sync.Mutex

	mPool  messagePool
	msgID  uint64
	shard  uint64
	queue  *list.List
	closed bool
	nowFn  func() time.Time
}

func newMessageWriter(shard uint64, mPool messagePool) *messageWriterImpl {
	return &messageWriterImpl{
		mPool: mPool,
		shard: shard,
		queue: list.New(),
		nowFn: time.Now,
	}
}

// Write queues a ref-counted message for the consumer.
func (w *messageWriterImpl) Write(rm *RefCountedMessage) {
	var (
		nowNanos = w.nowFn().UnixNano()
		msg      = w.newMessage()
	)
	w.Lock()
	if w.closed {
		w.Unlock()
		w.close(msg)
		return
	}
	rm.IncRef()
	w.msgID++
	meta := metadata{shard: w.shard, id: w.msgID}
	msg.Set(meta, rm, nowNanos)
	w.queue.PushBack(msg)
	w.Unlock()
}

// scanAcked drops acked or consumed messages from the queue.
func (w *messageWriterImpl) scanAcked() {
	w.Lock()
	defer w.Unlock()
	for e := w.queue.Front(); e != nil; {
		next := e.Next()
		m := e.Value.(*message)
		if m.IsAcked() || m.IsDroppedOrConsumed() {
			w.removeFromQueueWithLock(e, m)
		}
		e = next
	}
}

func (w *messageWriterImpl) newMessage() *message {
	if w.mPool != nil {
		return w.mPool.Get()
	}
	return newMessage()
}

func (w *messageWriterImpl) removeFromQueueWithLock(e *list.Element, m *message) {
	w.queue.Remove(e)
	w.close(m)
}

func (w *messageWriterImpl) close(m *message) {
	if w.mPool != nil {
		m.Close()
		w.mPool.Put(m)
	}
}
