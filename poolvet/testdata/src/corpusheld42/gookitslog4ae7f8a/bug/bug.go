// Package bug reproduces the shape of gookit/slog commit 4ae7f8a
// (https://github.com/gookit/slog/commit/4ae7f8a8c6663df33e20348e32afc22fe4fb7418):
// Logger.WithField (and WithData, WithContext, ...) took a *Record from the
// logger's record pool, deferred releaseRecord(r) and returned r.WithField(...),
// which is r itself. The deferred release put the record back into the pool as
// the method returned, so the caller chained Info/Error on a record that another
// goroutine could already have taken from the pool. The fix removed the deferred
// releases and releases the record after it has been written.
// Check: useafterput (the record is returned after the deferred release put it
// back); report at the return in WithField.
package bug

import (
	"fmt"
	"io"
	"sync"
	"time"
)

type M map[string]any

type Record struct {
	logger     *Logger
	inited     bool
	Time       time.Time
	Message    string
	Data       M
	Fields     M
	CallerSkip int
}

func (r *Record) WithField(name string, value any) *Record {
	if r.Fields == nil {
		r.Fields = M{}
	}
	r.Fields[name] = value
	return r
}

func (r *Record) Info(args ...any) {
	r.Time = time.Now()
	r.Message = fmt.Sprint(args...)
	fmt.Fprintf(r.logger.out, "%s %s %v\n", r.Time.Format(time.RFC3339), r.Message, r.Fields)
}

type Logger struct {
	out        io.Writer
	CallerSkip int
	recordPool sync.Pool
}

func New(out io.Writer) *Logger {
	l := &Logger{out: out}
	l.recordPool.New = func() any {
		return &Record{logger: l, CallerSkip: l.CallerSkip}
	}
	return l
}

func (l *Logger) newRecord() *Record {
	return l.recordPool.Get().(*Record)
}

func (l *Logger) releaseRecord(r *Record) {
	r.Time = time.Time{}
	r.Data = nil
	r.Fields = nil
	r.Message = ""
	r.inited = false
	r.CallerSkip = l.CallerSkip
	l.recordPool.Put(r)
}

func (l *Logger) WithField(name string, value any) *Record {
	r := l.newRecord()
	defer l.releaseRecord(r)
	return r.WithField(name, value) // want `useafterput`
}

func (l *Logger) Info(args ...any) {
	r := l.newRecord()
	r.CallerSkip++
	r.Info(args...)
	l.releaseRecord(r)
}
