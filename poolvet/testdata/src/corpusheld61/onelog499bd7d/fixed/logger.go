// Source: https://github.com/francoispqt/onelog/commit/499bd7dbc2af54b2eea3ef2a3a2271bae76045dc
// ("fix bug in with with buffer pooled"), using gojay v0.10.7's encoder pool
// (https://github.com/francoispqt/gojay, encode_pool.go).
//
// Bug: Logger.With encodes the context fields into a gojay Encoder, keeps
// enc.Buf()[1:] (a sub-slice of the encoder's buffer) in the new Logger's ctx
// field and then calls enc.Release(), which puts the encoder, buffer
// included, back into gojay's sync.Pool. The next BorrowEncoder truncates
// and rewrites that same buffer, so every later log line of the child logger
// prints whatever another entry wrote over its context.
// Fix: copy the bytes into a fresh slice before releasing the encoder.
//
// Check: useafterput (the sub-slice of the pooled encoder's buffer is stored
// in nL.ctx, which outlives the call, and the encoder is then put back by
// enc.Release())
package fixed

import (
	"io"
	"sync"
)

// ---- gojay (v0.10.7) encoder and its pool, trimmed ----

type Encoder struct {
	buf      []byte
	isPooled byte
	w        io.Writer
	err      error
}

var encPool = sync.Pool{
	New: func() interface{} {
		return NewEncoder(nil)
	},
}

// NewEncoder returns a new encoder.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w}
}

// BorrowEncoder borrows an Encoder from the pool.
func BorrowEncoder(w io.Writer) *Encoder {
	enc := encPool.Get().(*Encoder)
	enc.w = w
	enc.buf = enc.buf[:0]
	enc.isPooled = 0
	enc.err = nil
	return enc
}

// Release sends back a Encoder to the pool.
func (enc *Encoder) Release() {
	enc.isPooled = 1
	encPool.Put(enc)
}

func (enc *Encoder) AppendByte(b byte)    { enc.buf = append(enc.buf, b) }
func (enc *Encoder) AppendBytes(b []byte) { enc.buf = append(enc.buf, b...) }

func (enc *Encoder) AppendString(v string) {
	enc.buf = append(enc.buf, '"')
	enc.buf = append(enc.buf, v...)
	enc.buf = append(enc.buf, '"')
}

func (enc *Encoder) AddStringKey(k, v string) {
	enc.buf = append(enc.buf, ',', '"')
	enc.buf = append(enc.buf, k...)
	enc.buf = append(enc.buf, '"', ':')
	enc.AppendString(v)
}

// Buf returns the Encoder's buffer.
func (enc *Encoder) Buf() []byte {
	return enc.buf
}

// Write writes to the io.Writer and resets the buffer.
func (enc *Encoder) Write() (int, error) {
	i, err := enc.w.Write(enc.buf)
	enc.buf = enc.buf[:0]
	return i, err
}

// ---- onelog ----

var logClose = []byte("}\n")
var infoJSON = []byte(`{"level":"info","message":`)

type Entry struct {
	enc *Encoder
	l   *Logger
}

// String adds a string to the log entry.
func (e Entry) String(k, v string) Entry {
	e.enc.AddStringKey(k, v)
	return e
}

type Logger struct {
	hook   func(Entry)
	w      io.Writer
	levels uint8
	ctx    []byte
}

func (l *Logger) copy() *Logger {
	nL := Logger{
		levels: l.levels,
		w:      l.w,
	}
	return &nL
}

// With copies the current Logger and adds it a given context by running func f.
func (l *Logger) With(f func(Entry)) *Logger {
	nL := l.copy()
	e := Entry{}
	enc := NewEncoder(nL.w)
	e.enc = enc
	enc.AppendByte(' ')
	f(e)
	b := enc.Buf()
	nL.ctx = make([]byte, len(b[1:]))
	copy(nL.ctx, b[1:])
	enc.Release()
	return nL
}

// Info logs an entry with INFO level.
func (l *Logger) Info(msg string) {
	e := Entry{}
	enc := BorrowEncoder(l.w)
	e.enc = enc
	l.beginEntry(msg, enc)
	if l.hook != nil {
		l.hook(e)
	}
	l.closeEntry(enc)
	enc.Release()
}

func (l *Logger) beginEntry(msg string, enc *Encoder) {
	enc.AppendBytes(infoJSON)
	enc.AppendString(msg)
	if l.ctx != nil {
		enc.AppendBytes(l.ctx)
	}
}

func (l Logger) closeEntry(enc *Encoder) {
	enc.AppendBytes(logClose)
	enc.Write()
}
