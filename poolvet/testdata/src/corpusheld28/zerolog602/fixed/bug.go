// Package bug reproduces the shape of rs/zerolog#602
// (https://github.com/rs/zerolog/pull/602): TriggerLevelWriter holds back
// debug lines of a request in a pooled bytes.Buffer until an error-level
// line triggers a flush. As first proposed, Close reset the buffer and put
// it back into the package-level pool whatever its size; a request that
// buffered many lines (or a stack trace) grew the buffer and the pool kept
// that large buffer forever. Review asked for a size limit, and the merged
// version drops buffers above TriggerLevelWriterBufferReuseLimit.
//
// Check: unbounded (a grown bytes.Buffer is put back without a capacity
// bound, reported at the Put in Close).
package bug

import (
	"bytes"
	"io"
	"sync"
)

// Level is a log level.
type Level int8

// LevelWriter writes a line at a level.
type LevelWriter interface {
	io.Writer
	WriteLevel(level Level, p []byte) (n int, err error)
}

// TriggerLevelWriterBufferReuseLimit is the largest buffer capacity that is
// returned to the pool.
var TriggerLevelWriterBufferReuseLimit = 64 * 1024

var triggerWriterPool = &sync.Pool{
	New: func() any {
		return bytes.NewBuffer(make([]byte, 0, 1024))
	},
}

// TriggerLevelWriter buffers lines at ConditionalLevel or below until a
// line at TriggerLevel or above is written.
type TriggerLevelWriter struct {
	io.Writer

	ConditionalLevel Level
	TriggerLevel     Level

	buf       *bytes.Buffer
	triggered bool
	mu        sync.Mutex
}

func (w *TriggerLevelWriter) WriteLevel(l Level, p []byte) (n int, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()

	if !w.triggered && l >= w.TriggerLevel {
		if err := w.trigger(); err != nil {
			return 0, err
		}
	}

	if !w.triggered && l <= w.ConditionalLevel {
		if w.buf == nil {
			w.buf = triggerWriterPool.Get().(*bytes.Buffer)
		}
		w.buf.WriteByte(byte(l))
		w.buf.Write(p)
		return len(p), nil
	}

	if lw, ok := w.Writer.(LevelWriter); ok {
		return lw.WriteLevel(l, p)
	}
	return w.Write(p)
}

// trigger expects the lock to be held.
func (w *TriggerLevelWriter) trigger() error {
	if w.triggered {
		return nil
	}
	w.triggered = true
	if w.buf == nil {
		return nil
	}
	p := w.buf.Bytes()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		line := p[0 : i+1]
		p = p[i+1:]
		level := Level(line[0])
		line = line[1:]
		var err error
		if lw, ok := w.Writer.(LevelWriter); ok {
			_, err = lw.WriteLevel(level, line)
		} else {
			_, err = w.Write(line)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Trigger flushes the buffered lines.
func (w *TriggerLevelWriter) Trigger() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.trigger()
}

// Close closes the writer and returns the buffer to the pool.
func (w *TriggerLevelWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()

	if w.buf == nil {
		return nil
	}

	// Return the buffer only if it has not grown above the limit.
	if w.buf.Cap() <= TriggerLevelWriterBufferReuseLimit {
		w.buf.Reset()
		triggerWriterPool.Put(w.buf)
	}
	w.buf = nil

	return nil
}
