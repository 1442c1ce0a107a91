// Package bug reproduces the shape of moby/moby#43306
// (https://github.com/moby/moby/pull/43306): LogFile.WriteLogEntry handed
// the log message back to the message pool (logger.PutMessage) right after
// marshalling it, then read msg.Timestamp to stamp the gzip header of a
// rotated file. Another goroutine could already have taken the message out
// of the pool and overwritten its timestamp.
//
// Check: useafterput (a field of the object read after a Put wrapper gave
// it back; the report belongs on the first read after PutMessage).
package bug

import (
	"sync"
	"time"
)

type Message struct {
	Line      []byte
	Source    string
	Timestamp time.Time
}

// reset clears the per-entry data but, as in the original, not the
// timestamp.
func (m *Message) reset() {
	m.Line = m.Line[:0]
	m.Source = ""
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
	PutMessage(msg)

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.maxSize > 0 && w.size+int64(len(b)) > w.maxSize {
		w.rotate(msg.Timestamp) // want `useafterput`
	}
	w.out = append(w.out, b...)
	w.size += int64(len(b))
	return nil
}
