// Package bug reproduces the shape of thrasher-corp/gocryptotrader#2296
// (https://github.com/thrasher-corp/gocryptotrader/pull/2296, commit aeb076493):
// the logger checks a *fields value out of logFieldsPool for every log call.
// getFields refreshes the level flags, name, output and bot name from the
// sub-logger but never touches structuredFields. The *WithFields variants set
// structuredFields on the pooled value and stage() puts it back still holding
// that map, so a later plain Infoln that happens to get the same value emits
// the previous caller's structured fields (cross-entry data leak).
// The fix clears structuredFields whenever a value is checked out (fixed twin).
//
// Check: noreset (the pooled *fields goes back to logFieldsPool in stage()
// still holding structuredFields from the *WithFields call).
package bug

import (
	"fmt"
	"io"
	"sync"
)

type Key string

type ExtraFields map[Key]any

type Logger struct {
	InfoHeader  string
	ErrorHeader string
	Spacer      string
}

type multiWriterHolder struct {
	writers []io.Writer
}

func (m *multiWriterHolder) StageLogEvent(fn func() string, header, name, spacer string, structured bool, extra ExtraFields) {
	line := header + spacer + name + spacer + fn()
	if structured {
		for k, v := range extra {
			line += fmt.Sprintf(" %s=%v", k, v)
		}
	}
	for _, w := range m.writers {
		_, _ = io.WriteString(w, line+"\n")
	}
}

type SubLogger struct {
	name              string
	botName           string
	info, errorLevel  bool
	structuredLogging bool
	output            *multiWriterHolder
}

type fields struct {
	info              bool
	error             bool
	structuredLogging bool
	name              string
	output            *multiWriterHolder
	logger            Logger
	botName           string
	structuredFields  ExtraFields
}

var (
	logger = Logger{InfoHeader: "[INFO]", ErrorHeader: "[ERROR]", Spacer: " | "}

	// Logger state inside the pooled fields persists between uses on purpose.
	logFieldsPool = &sync.Pool{New: func() any { return &fields{logger: logger} }}

	mu      = &sync.RWMutex{}
	enabled = true
)

// getFields checks a fields value out of the pool and fills it from the
// sub-logger. The caller must hold mu.
func (sl *SubLogger) getFields() *fields {
	if sl == nil || !enabled {
		return nil
	}
	f := logFieldsPool.Get().(*fields)
	f.structuredFields = nil
	f.info = sl.info
	f.error = sl.errorLevel
	f.name = sl.name
	f.output = sl.output
	f.botName = sl.botName
	f.structuredLogging = sl.structuredLogging
	return f
}

func (l *fields) enabled(header string) bool {
	switch header {
	case l.logger.InfoHeader:
		return l.info
	case l.logger.ErrorHeader:
		return l.error
	}
	return false
}

func (l *fields) stage(header string, deferFunc func() string) {
	if l == nil {
		return
	}
	if l.enabled(header) {
		l.output.StageLogEvent(deferFunc,
			header,
			l.name,
			l.logger.Spacer,
			l.structuredLogging,
			l.structuredFields)
	}
	logFieldsPool.Put(l)
}

func (l *fields) stageln(header string, a ...any) {
	l.stage(header, func() string { return fmt.Sprint(a...) })
}

// Infoln logs without structured fields.
func Infoln(sl *SubLogger, a ...any) {
	mu.RLock()
	defer mu.RUnlock()
	if f := sl.getFields(); f != nil {
		f.stageln(f.logger.InfoHeader, a...)
	}
}

// InfolnWithFields logs with extra structured fields.
func InfolnWithFields(sl *SubLogger, extra ExtraFields, a ...any) {
	mu.RLock()
	defer mu.RUnlock()
	if f := sl.getFields(); f != nil {
		f.structuredFields = extra
		f.stageln(f.logger.InfoHeader, a...)
	}
}

// Errorln logs an error without structured fields.
func Errorln(sl *SubLogger, a ...any) {
	mu.RLock()
	defer mu.RUnlock()
	if f := sl.getFields(); f != nil {
		f.stageln(f.logger.ErrorHeader, a...)
	}
}
