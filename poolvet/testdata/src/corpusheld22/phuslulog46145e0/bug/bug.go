// Package bug reproduces the shape of phuslu/log commit 46145e0 ("fix AsyncWriter.WriteEntry
// buf read race and return discarded entry to pool",
// https://github.com/phuslu/log/commit/46145e0286e735375bef323ac25fdd3f8339c0ef):
// AsyncWriter.WriteEntry takes an *Entry from the logger's epool, swaps the caller's buffer
// into it and sends it on w.ch. From then on the entry belongs to the writer goroutine, which
// writes it and puts it back into epool (where the next logging call takes it and refills
// buf). WriteEntry nevertheless returns len(entry.buf) after the send, reading an entry that
// may already be back in the pool and reused. The fix snapshots the length before the send
// (and also returns a discarded entry to the pool).
// Check: useafterput (entry.buf read after the entry was handed to the writer goroutine,
// which puts it back into epool).
package bug

import (
	"errors"
	"io"
	"sync"
)

type Level uint32

const InfoLevel Level = 3

// Entry represents a log entry; its buffer is reused through epool.
type Entry struct {
	buf   []byte
	Level Level
}

const bbcap = 1 << 16

var epool = sync.Pool{
	New: func() any {
		return &Entry{buf: make([]byte, 0, 1024)}
	},
}

// Writer defines an entry writer interface.
type Writer interface {
	WriteEntry(*Entry) (int, error)
}

// AsyncWriter is a Writer that writes asynchronously.
type AsyncWriter struct {
	// Writer specifies the writer of output.
	Writer Writer

	// ChannelSize is the size of the data channel, the default size is 1.
	ChannelSize uint

	// DiscardOnFull determines whether to discard new entry when the channel is full.
	DiscardOnFull bool

	once    sync.Once
	ch      chan *Entry
	chClose chan error
}

func (w *AsyncWriter) init() {
	w.ch = make(chan *Entry, w.ChannelSize)
	w.chClose = make(chan error)
	go w.writer()
}

// Close implements io.Closer, and closes the underlying Writer.
func (w *AsyncWriter) Close() (err error) {
	w.once.Do(w.init)
	close(w.ch)
	err = <-w.chClose
	if closer, ok := w.Writer.(io.Closer); ok {
		if err1 := closer.Close(); err1 != nil {
			err = err1
		}
	}
	return
}

var ErrAsyncWriterFull = errors.New("async writer is full")

// WriteEntry implements Writer.
func (w *AsyncWriter) WriteEntry(e *Entry) (int, error) {
	w.once.Do(w.init)

	// cheating to logger pool
	entry := epool.Get().(*Entry)
	entry.Level = e.Level
	entry.buf, e.buf = e.buf, entry.buf

	if w.DiscardOnFull {
		select {
		case w.ch <- entry:
			return len(entry.buf), nil // want `useafterput`
		default:
			return 0, ErrAsyncWriterFull
		}
	} else {
		w.ch <- entry
		return len(entry.buf), nil // want `useafterput`
	}
}

func (w *AsyncWriter) writer() {
	var err error
	for entry := range w.ch {
		if entry == nil {
			break
		}
		_, err = w.Writer.WriteEntry(entry)
		if cap(entry.buf) <= bbcap {
			entry.buf = entry.buf[:0]
			epool.Put(entry)
		}
	}
	w.chClose <- err
}

var _ Writer = (*AsyncWriter)(nil)
