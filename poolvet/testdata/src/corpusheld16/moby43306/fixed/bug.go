// Package fixed is the fixed twin of moby/moby#43306
// (https://github.com/moby/moby/pull/43306): the timestamp is copied out
// of the message before it goes back to the pool, and reset now clears
// every field so a later use after Put fails fast.
package fixed

import (
	"sync"
	"time"
)

type Message struct {
	Line      []byte
	Source    string
	Timestamp time.Time
}

func (m *Message) reset() {
	*m = Message{Line: m.Line[:0]}
}

var messagePool = sync.Pool{New: func() any { return &Message{Line: make([]byte, 0, 256)} }}

func NewMessage() *Message {
	return messagePool.Get().(*Message)
}

// PutMessage gives msg back to the pool; callers must not touch it again.
func PutMessage(msg *Message) {
	msg.reset()
	messagePool.Put(msg)
}

type LogFile struct {
	mu          sync.Mutex
	size        int64
	maxSize     int64
	out         []byte
	lastRotated time.Time
}

func marshal(msg *Message) []byte {
	b := make([]byte, 0, len(msg.Line)+len(msg.Source)+1)
	b = append(b, msg.Source...)
	b = append(b, ' ')
	b = append(b, msg.Line...)
	return b
}

func (w *LogFile) rotate(lastTimestamp time.Time) {
	w.lastRotated = lastTimestamp
	w.size = 0
	w.out = w.out[:0]
}

func (w *LogFile) WriteLogEntry(msg *Message) error {
	b := marshal(msg)
	ts := msg.Timestamp
	PutMessage(msg)

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.maxSize > 0 && w.size+int64(len(b)) > w.maxSize {
		w.rotate(ts)
	}
	w.out = append(w.out, b...)
	w.size += int64(len(b))
	return nil
}
