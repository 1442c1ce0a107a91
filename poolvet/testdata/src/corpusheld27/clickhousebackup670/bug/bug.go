// Package bug reproduces the shape of Altinity/clickhouse-backup#670
// (https://github.com/Altinity/clickhouse-backup/pull/670#discussion_r1677387856,
// fixed in https://github.com/Altinity/clickhouse-backup/commit/2251da95f31ea82d0bd731d40fc0e6df981f843a):
// after switching to a zerolog-style logger, ClickHouse.Connect built one log
// event up front (logFunc := log.Info(), or log.Debug()) and then finished it
// twice, once before the ping and once after. Finishing an event (Msgf) writes
// it and hands it back to the logger's sync.Pool, so the second Msgf puts the
// same *Event into the pool a second time; two later log calls then get the
// same event and race on its buffer. The fix keeps only the level and starts a
// fresh event for each message.
//
// Check: doubleput (the second Msgf on the cached event returns it to the pool
// again).
package bug

import (
	"fmt"
	"io"
	"strconv"
	"sync"
)

// Level is a log level.
type Level int8

const (
	DebugLevel Level = iota
	InfoLevel
	ErrorLevel
)

const maxPooledEventSize = 1 << 16

// Event is a log record under construction. It comes from eventPool and goes
// back there when the message is written.
type Event struct {
	buf   []byte
	w     io.Writer
	level Level
	stack bool
}

var eventPool = &sync.Pool{
	New: func() any {
		return &Event{buf: make([]byte, 0, 500)}
	},
}

func newEvent(w io.Writer, level Level) *Event {
	e := eventPool.Get().(*Event)
	e.buf = e.buf[:0]
	e.w = w
	e.level = level
	e.stack = false
	return e
}

func putEvent(e *Event) {
	if cap(e.buf) > maxPooledEventSize {
		return
	}
	e.w = nil
	eventPool.Put(e)
}

// Stack asks for a stack trace to be attached.
func (e *Event) Stack() *Event {
	if e == nil {
		return e
	}
	e.stack = true
	return e
}

// Msgf formats and writes the event. The event must not be used afterwards.
func (e *Event) Msgf(format string, v ...any) {
	if e == nil {
		return
	}
	e.buf = append(e.buf, `{"level":`...)
	e.buf = strconv.AppendInt(e.buf, int64(e.level), 10)
	e.buf = append(e.buf, `,"message":`...)
	e.buf = strconv.AppendQuote(e.buf, fmt.Sprintf(format, v...))
	if e.stack {
		e.buf = append(e.buf, `,"stack":true`...)
	}
	e.buf = append(e.buf, "}\n"...)
	_, _ = e.w.Write(e.buf)
	putEvent(e)
}

// Logger writes events at or above its level.
type Logger struct {
	w     io.Writer
	level Level
}

// WithLevel starts an event at the given level, or nil when it is disabled.
func (l *Logger) WithLevel(level Level) *Event {
	if level < l.level {
		return nil
	}
	return newEvent(l.w, level)
}

func (l *Logger) Info() *Event  { return l.WithLevel(InfoLevel) }
func (l *Logger) Debug() *Event { return l.WithLevel(DebugLevel) }
func (l *Logger) Error() *Event { return l.WithLevel(ErrorLevel) }

var log = &Logger{w: io.Discard, level: DebugLevel}

type conn interface {
	Ping() error
}

type Config struct {
	Host          string
	Port          int
	LogSQLQueries bool
}

type ClickHouse struct {
	Config *Config
	conn   conn
	IsOpen bool
}

func (ch *ClickHouse) Connect() error {
	logFunc := log.Info()
	if !ch.Config.LogSQLQueries {
		logFunc = log.Debug()
	}
	logFunc.Stack().Msgf("clickhouse connection prepared: %s run ping", fmt.Sprintf("tcp://%v:%v", ch.Config.Host, ch.Config.Port))
	err := ch.conn.Ping()
	if err != nil {
		log.Error().Msgf("clickhouse connection ping: %s return error: %v", fmt.Sprintf("tcp://%v:%v", ch.Config.Host, ch.Config.Port), err)
		return err
	}
	ch.IsOpen = true
	logFunc.Stack().Msgf("clickhouse connection open: %s", fmt.Sprintf("tcp://%v:%v", ch.Config.Host, ch.Config.Port)) // want `doubleput`
	return err
}
