// Source: https://github.com/phuslu/log/commit/df503259a6b1c18e633723568c9850c2af8df124
// ("disable sync.pool for slog handler"), logger_slog.go and logger.go before it.
//
// Bug: the slog.Handler built the "With" group context once per handler
// (h.once.Do) into a byte buffer taken from the package bbpool
// (sync.Pool of *bb). NewContext(b.B[:0]) makes an Entry whose buf aliases
// the pooled buffer, Value() returns that buf, and the handler stored it in
// its long-lived h.context field, then put b back into bbpool. Every later
// log call appends h.context into its entry, while any other user of
// bbpool (console writer, journal writer, other slog groups) that gets the
// same *bb overwrites the bytes, corrupting the cached context.
// Fix: the commit stops using bbpool in the slog handler and builds the
// contexts with NewContext(nil), so h.context owns its memory.
// Check: useafterput (in Handle's once.Do closure: Value() of a context built
// on the pooled b.B is stored in the handler field h.context and b is then
// Put back while h.context keeps referencing its memory)
package bug

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
)

type Level uint32

const (
	DebugLevel Level = 2
	InfoLevel  Level = 3
	WarnLevel  Level = 4
	ErrorLevel Level = 5
)

// Writer defines an entry writer interface.
type Writer interface {
	WriteEntry(*Entry) (int, error)
}

type Entry struct {
	buf   []byte
	Level Level
	w     Writer
}

type Logger struct {
	Level  Level
	Caller int
	Writer Writer
}

var epool = sync.Pool{
	New: func() interface{} {
		return &Entry{buf: make([]byte, 0, 1024)}
	},
}

func (l *Logger) header(level Level) *Entry {
	if level < l.Level {
		return nil
	}
	e := epool.Get().(*Entry)
	e.buf = e.buf[:0]
	e.Level = level
	e.w = l.Writer
	e.buf = append(e.buf, '{')
	return e
}

func (l *Logger) Debug() *Entry { return l.header(DebugLevel) }
func (l *Logger) Info() *Entry  { return l.header(InfoLevel) }
func (l *Logger) Warn() *Entry  { return l.header(WarnLevel) }
func (l *Logger) Error() *Entry { return l.header(ErrorLevel) }
func (l *Logger) Log() *Entry   { return l.header(InfoLevel) }

func (e *Entry) Str(key string, val string) *Entry {
	if e == nil {
		return nil
	}
	e.buf = append(e.buf, ',', '"')
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '"', ':')
	e.buf = strconv.AppendQuote(e.buf, val)
	return e
}

func (e *Entry) Int64(key string, i int64) *Entry {
	if e == nil {
		return nil
	}
	e.buf = append(e.buf, ',', '"')
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '"', ':')
	e.buf = strconv.AppendInt(e.buf, i, 10)
	return e
}

func (e *Entry) Bool(key string, b bool) *Entry {
	if e == nil {
		return nil
	}
	e.buf = append(e.buf, ',', '"')
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '"', ':')
	e.buf = strconv.AppendBool(e.buf, b)
	return e
}

func (e *Entry) Msg(msg string) {
	if e == nil {
		return
	}
	e = e.Str("message", msg)
	e.buf = append(e.buf, '}', '\n')
	if e.w != nil {
		_, _ = e.w.WriteEntry(e)
	}
	if cap(e.buf) <= 1<<16 {
		epool.Put(e)
	}
}

type bb struct {
	B []byte
}

func (b *bb) Write(p []byte) (int, error) {
	b.B = append(b.B, p...)
	return len(p), nil
}

var bbpool = sync.Pool{
	New: func() interface{} {
		return new(bb)
	},
}

// Context represents contextual fields.
type Context []byte

// NewContext starts a new contextual entry.
func NewContext(dst []byte) (e *Entry) {
	e = new(Entry)
	e.buf = dst
	return
}

// Value builds the contextual fields.
func (e *Entry) Value() Context {
	if e == nil {
		return nil
	}
	return e.buf
}

// Context sends the contextual fields to entry.
func (e *Entry) Context(ctx Context) *Entry {
	if e == nil {
		return nil
	}
	if len(ctx) != 0 {
		e.buf = append(e.buf, ctx...)
	}
	return e
}

// Dict sends the contextual fields with key to entry.
func (e *Entry) Dict(key string, ctx Context) *Entry {
	if e == nil {
		return nil
	}
	e.buf = append(e.buf, ',', '"')
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '"', ':', '{')
	if len(ctx) > 0 {
		e.buf = append(e.buf, ctx[1:]...)
	}
	e.buf = append(e.buf, '}')
	return e
}

func slogAttrEval(e *Entry, a slog.Attr) *Entry {
	if a.Equal(slog.Attr{}) {
		return e
	}
	value := a.Value.Resolve()
	switch value.Kind() {
	case slog.KindGroup:
		b := bbpool.Get().(*bb)
		defer bbpool.Put(b)
		c := NewContext(b.B[:0])
		for _, attr := range value.Group() {
			c = slogAttrEval(c, attr)
		}
		if a.Key != "" {
			return e.Dict(a.Key, c.Value())
		} else {
			return e.Context(c.Value())
		}
	case slog.KindBool:
		return e.Bool(a.Key, value.Bool())
	case slog.KindInt64:
		return e.Int64(a.Key, value.Int64())
	case slog.KindString:
		return e.Str(a.Key, value.String())
	default:
		return e.Str(a.Key, value.String())
	}
}

type slogGroup struct {
	name  string
	attrs []slog.Attr
	child *slogGroup
}

func (group *slogGroup) empty() bool {
	return len(group.attrs) == 0 && group.child == nil
}

func (group *slogGroup) WithAttrs(attrs []slog.Attr) {
	if group.child == nil {
		group.attrs = append([]slog.Attr{}, group.attrs...)
		group.attrs = append(group.attrs, attrs...)
	} else {
		group.child.WithAttrs(attrs)
	}
}

func (group *slogGroup) WithGroup(name string) {
	if group.child == nil {
		group.child = &slogGroup{name: name}
	} else {
		group.child.WithGroup(name)
	}
}

func (group *slogGroup) Eval(e *Entry) *Entry {
	for _, attr := range group.attrs {
		e = slogAttrEval(e, attr)
	}
	if group.child != nil {
		b := bbpool.Get().(*bb)
		e = e.Dict(group.child.name, group.child.Eval(NewContext(b.B[:0])).Value())
		bbpool.Put(b)
	}
	return e
}

type slogHandler struct {
	logger  Logger
	caller  int
	group   slogGroup
	once    sync.Once
	context Context
}

// upstream copies the handler by value (nolint:govet copylocks); here a
// fresh handler with a zero sync.Once is built, which is what that copy did.
func (h *slogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h2 := &slogHandler{logger: h.logger, caller: h.caller, group: h.group}
	h2.group.WithAttrs(attrs)
	return h2
}

func (h *slogHandler) WithGroup(name string) slog.Handler {
	h2 := &slogHandler{logger: h.logger, caller: h.caller, group: h.group}
	if name != "" {
		h2.group.WithGroup(name)
	}
	return h2
}

func (h *slogHandler) Enabled(_ context.Context, level slog.Level) bool {
	switch level {
	case slog.LevelDebug:
		return h.logger.Level <= DebugLevel
	case slog.LevelInfo:
		return h.logger.Level <= InfoLevel
	case slog.LevelWarn:
		return h.logger.Level <= WarnLevel
	case slog.LevelError:
		return h.logger.Level <= ErrorLevel
	}
	return false
}

func (h *slogHandler) Handle(_ context.Context, r slog.Record) error {
	var e *Entry
	switch r.Level {
	case slog.LevelDebug:
		e = h.logger.Debug()
	case slog.LevelInfo:
		e = h.logger.Info()
	case slog.LevelWarn:
		e = h.logger.Warn()
	case slog.LevelError:
		e = h.logger.Error()
	default:
		e = h.logger.Log()
	}

	if !h.group.empty() {
		h.once.Do(func() {
			b := bbpool.Get().(*bb)
			h.context = h.group.Eval(NewContext(b.B[:0])).Value()
			bbpool.Put(b) // want `useafterput`
		})
		e = e.Context(h.context)
	}

	r.Attrs(func(attr slog.Attr) bool {
		e = slogAttrEval(e, attr)
		return true
	})
	e.Msg(r.Message)
	return nil
}

// Slog wraps the Logger to provide *slog.Logger
func (l *Logger) Slog() *slog.Logger {
	h := &slogHandler{
		logger: *l,
		caller: l.Caller,
	}

	h.logger.Caller = 0

	return slog.New(h)
}
