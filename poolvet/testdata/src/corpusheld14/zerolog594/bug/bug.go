// Package bug reproduces the shape of rs/zerolog#594
// (https://github.com/rs/zerolog/pull/594): a proposed change made
// Logger.With build the child logger's context in a bytes.Buffer taken from
// a sync.Pool. The buffer went back to the pool before With returned, but the
// returned Context kept the buffer's bytes as its context prefix; the
// maintainer rejected it because the buffer is used after it was put back.
//
// Check: useafterput (retention: the bytes of the pooled buffer are stored
// in the struct that is returned after the buffer went back to the pool; the
// report belongs at the return that hands that struct out).
package bug

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
	l.context = buf.Bytes()
	if buf.Cap() <= maxCtxBuf {
		buf.Reset()
		ctxBufPool.Put(buf)
	}
	return Context{l} // want `useafterput`
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
