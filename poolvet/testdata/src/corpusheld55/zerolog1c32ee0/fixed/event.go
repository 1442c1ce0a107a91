// Source: https://github.com/rs/zerolog/pull/219
// (commit https://github.com/rs/zerolog/commit/1c32ee06a7ae66219168955c25b1fa7669c6bcca,
// "Fix: Event.stack initialization error"), event.go and log.go before it.
//
// Bug: *Event objects are recycled through eventPool. newEvent re-initialises
// a pooled Event (buf, ch, w, level) but forgot the stack flag that
// Event.Stack() sets. An Event that had Stack() called goes back to the
// pool via putEvent with stack still true, and the next logger call that
// gets it from newEvent behaves as if Stack() had been called: Err() adds
// an error stack trace the caller never asked for.
// Fix: newEvent also resets e.stack = false.
// Check: noreset (in newEvent, the project's re-initialisation of an Event
// taken from eventPool, which forgets the stack field left by its last user)
package fixed

import (
	"strconv"
	"sync"
)

type Level int8

const (
	DebugLevel Level = iota
	InfoLevel
	WarnLevel
	ErrorLevel
	NoLevel  Level = 6
	Disabled Level = 7
)

func (l Level) String() string {
	switch l {
	case DebugLevel:
		return "debug"
	case InfoLevel:
		return "info"
	case WarnLevel:
		return "warn"
	case ErrorLevel:
		return "error"
	}
	return ""
}

var (
	LevelFieldName      = "level"
	MessageFieldName    = "message"
	ErrorFieldName      = "error"
	ErrorStackFieldName = "stack"

	// ErrorStackMarshaler extract the stack from err if any.
	ErrorStackMarshaler func(err error) interface{}
)

// LevelWriter defines as interface a writer may implement in order
// to receive level information with payload.
type LevelWriter interface {
	WriteLevel(level Level, p []byte) (n int, err error)
}

// Hook defines an interface to a log hook.
type Hook interface {
	Run(e *Event, level Level, message string)
}

var eventPool = &sync.Pool{
	New: func() interface{} {
		return &Event{
			buf: make([]byte, 0, 500),
		}
	},
}

// Event represents a log event. It is instanced by one of the level method of
// Logger and finalized by the Msg or Msgf method.
type Event struct {
	buf   []byte
	w     LevelWriter
	level Level
	done  func(msg string)
	stack bool   // enable error stack trace
	ch    []Hook // hooks from context
}

func putEvent(e *Event) {
	// See https://golang.org/issue/23199
	const maxSize = 1 << 16 // 64KiB
	if cap(e.buf) > maxSize {
		return
	}
	eventPool.Put(e)
}

func newEvent(w LevelWriter, level Level) *Event {
	e := eventPool.Get().(*Event)
	e.buf = e.buf[:0]
	e.ch = nil
	e.buf = append(e.buf, '{')
	e.w = w
	e.level = level
	e.stack = false
	return e
}

func (e *Event) write() (err error) {
	if e == nil {
		return nil
	}
	if e.level != Disabled {
		e.buf = append(e.buf, '}', '\n')
		if e.w != nil {
			_, err = e.w.WriteLevel(e.level, e.buf)
		}
	}
	putEvent(e)
	return
}

// Msg sends the *Event with msg added as the message field if not empty.
func (e *Event) Msg(msg string) {
	if e == nil {
		return
	}
	e.msg(msg)
}

func (e *Event) msg(msg string) {
	for _, hook := range e.ch {
		hook.Run(e, e.level, msg)
	}
	if msg != "" {
		e.Str(MessageFieldName, msg)
	}
	if e.done != nil {
		defer e.done(msg)
	}
	_ = e.write()
}

func (e *Event) appendKey(key string) {
	if len(e.buf) > 0 && e.buf[len(e.buf)-1] != '{' {
		e.buf = append(e.buf, ',')
	}
	e.buf = strconv.AppendQuote(e.buf, key)
	e.buf = append(e.buf, ':')
}

// Str adds the field key with val as a string to the *Event context.
func (e *Event) Str(key, val string) *Event {
	if e == nil {
		return e
	}
	e.appendKey(key)
	e.buf = strconv.AppendQuote(e.buf, val)
	return e
}

// AnErr adds the field key with serialized err to the *Event context.
func (e *Event) AnErr(key string, err error) *Event {
	if e == nil || err == nil {
		return e
	}
	return e.Str(key, err.Error())
}

// Err adds the field "error" with serialized err to the *Event context.
//
// If Stack() has been called before and zerolog.ErrorStackMarshaler is defined,
// the err is passed to ErrorStackMarshaler and the result is appended to the
// zerolog.ErrorStackFieldName.
func (e *Event) Err(err error) *Event {
	if e == nil {
		return e
	}
	if e.stack && ErrorStackMarshaler != nil {
		switch m := ErrorStackMarshaler(err).(type) {
		case nil:
		case error:
			if m != nil {
				e.Str(ErrorStackFieldName, m.Error())
			}
		case string:
			e.Str(ErrorStackFieldName, m)
		}
	}
	return e.AnErr(ErrorFieldName, err)
}

// Stack enables stack trace printing for the error passed to Err().
func (e *Event) Stack() *Event {
	if e != nil {
		e.stack = true
	}
	return e
}

// Logger represents an active logging object.
type Logger struct {
	w       LevelWriter
	level   Level
	context []byte
	hooks   []Hook
}

func New(w LevelWriter) Logger {
	return Logger{w: w}
}

func (l *Logger) Info() *Event  { return l.newEvent(InfoLevel, nil) }
func (l *Logger) Error() *Event { return l.newEvent(ErrorLevel, nil) }

func (l *Logger) newEvent(level Level, done func(string)) *Event {
	enabled := l.should(level)
	if !enabled {
		return nil
	}
	e := newEvent(l.w, level)
	e.done = done
	e.ch = l.hooks
	if level != NoLevel {
		e.Str(LevelFieldName, level.String())
	}
	if len(l.context) > 0 {
		e.buf = append(e.buf, ',')
		e.buf = append(e.buf, l.context...)
	}
	return e
}

func (l *Logger) should(lvl Level) bool {
	return lvl >= l.level
}
