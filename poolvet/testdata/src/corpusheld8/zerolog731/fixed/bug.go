// Package fixed is the fixed twin of rs/zerolog#731
// (https://github.com/rs/zerolog/issues/731): zerolog takes each *Event from
// a sync.Pool and puts it back once the message is written. A user's hook
// kept the *Event it was given and read it later, after the event had been
// sent and reclaimed by the pool, so the read raced with the next log call
// reusing the same Event.
//
// Fix (what the issue implies for hooks): the hook copies what it needs out
// of the event while Run executes and keeps no pointer to it.
package fixed

import (
	"io"
	"sync"
)

type Level int8

const (
	DebugLevel Level = iota
	InfoLevel
)

const maxEventBuf = 1 << 16

type Hook interface {
	Run(e *Event, level Level, msg string)
}

type Event struct {
	buf   []byte
	level Level
	msg   string
	w     io.Writer
	hooks []Hook
}

var eventPool = sync.Pool{New: func() any { return &Event{buf: make([]byte, 0, 500)} }}

func newEvent(w io.Writer, hooks []Hook, level Level) *Event {
	e := eventPool.Get().(*Event)
	e.buf = e.buf[:0]
	e.level = level
	e.msg = ""
	e.w = w
	e.hooks = hooks
	return e
}

func putEvent(e *Event) {
	// Proper usage of a sync.Pool requires each entry to have approximately
	// the same memory cost; drop events whose buffer grew too large.
	if cap(e.buf) > maxEventBuf {
		return
	}
	e.w = nil
	e.hooks = nil
	eventPool.Put(e)
}

func (e *Event) Str(key, val string) *Event {
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '=')
	e.buf = append(e.buf, val...)
	e.buf = append(e.buf, ' ')
	return e
}

// Msg runs the hooks, writes the event and recycles it.
func (e *Event) Msg(msg string) {
	e.msg = msg
	for _, h := range e.hooks {
		h.Run(e, e.level, msg)
	}
	e.buf = append(e.buf, msg...)
	e.buf = append(e.buf, '\n')
	_, _ = e.w.Write(e.buf)
	putEvent(e)
}

type Logger struct {
	w     io.Writer
	hooks []Hook
}

func (l *Logger) Hook(h Hook) *Logger {
	return &Logger{w: l.w, hooks: append(append([]Hook(nil), l.hooks...), h)}
}

func (l *Logger) Info() *Event { return newEvent(l.w, l.hooks, InfoLevel) }

// captureHook is the user's hook: it keeps the last event for later checks.
type captureHook struct {
	lastLevel Level
	lastMsg   string
}

func (h *captureHook) Run(e *Event, level Level, msg string) {
	h.lastLevel = level
	h.lastMsg = msg
}

// LoggedMessage logs msg through a logger with the capture hook and returns
// the message the hook saw.
func LoggedMessage(w io.Writer, msg string) string {
	h := &captureHook{}
	l := (&Logger{w: w}).Hook(h)
	l.Info().Str("component", "api").Msg(msg)
	return h.lastMsg
}
