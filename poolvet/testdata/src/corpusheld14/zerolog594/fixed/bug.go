// Package fixed is the fixed twin of rs/zerolog#594
// (https://github.com/rs/zerolog/pull/594): the child logger owns a copy of
// the context bytes, so the pooled buffer can go back to the pool.
package fixed

import (
	"bytes"
	"sync"
)

type Logger struct {
	level   int
	context []byte
}

type Context struct {
	l Logger
}

var ctxBufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxCtxBuf = 4 << 10

// With returns a Context for adding fields to the logger's context.
func (l Logger) With() Context {
	buf := ctxBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.Write(l.context)
	l.context = bytes.Clone(buf.Bytes())
	if buf.Cap() <= maxCtxBuf {
		buf.Reset()
		ctxBufPool.Put(buf)
	}
	return Context{l}
}

// Str adds a string field to the context.
func (c Context) Str(key, val string) Context {
	c.l.context = append(c.l.context, key...)
	c.l.context = append(c.l.context, '=')
	c.l.context = append(c.l.context, val...)
	return c
}

// Logger returns the logger with the context built so far.
func (c Context) Logger() Logger {
	return c.l
}
