package useafterput

import (
	"bytes"
	"sync"
)

// A writer embeds, by value, the struct that holds its pooled buffer;
// Release puts the buffer back and Bytes returns a view of it. Returning
// that view past a deferred Release hands the caller memory the pool gives
// to the next user (lindb/lindb#206).
var embBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type embBase struct {
	buf *bytes.Buffer
	err error
}

type embWriter struct {
	embBase
}

func newEmbWriter() *embWriter {
	return &embWriter{embBase{buf: embBufs.Get().(*bytes.Buffer)}}
}

func (w *embWriter) Release() {
	w.buf.Reset()
	embBufs.Put(w.buf)
	w.buf = nil
}

func (w *embWriter) Bytes() ([]byte, error) { return w.buf.Bytes(), w.err } // want Bytes:`pool:alias`

func embEncode(s string) ([]byte, error) {
	w := newEmbWriter()
	defer w.Release()
	w.buf.WriteString(s)
	return w.Bytes() // want `shares memory with what Bytes \(line 39\) returned, a view of a pooled object`
}

// A copy is the caller's own: silent.
func embEncodeCopy(s string) ([]byte, error) {
	w := newEmbWriter()
	defer w.Release()
	w.buf.WriteString(s)
	b, err := w.Bytes()
	return append([]byte(nil), b...), err
}
