package useafterput

import (
	"bytes"
	"io"
	"sync"
)

var logPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Deferred calls run last-in first-out: the write runs after the Put.
func logLater(w io.Writer, s string) {
	b := logPool.Get().(*bytes.Buffer)
	b.Reset()
	defer func() { w.Write(b.Bytes()) }() // want `this deferred call uses b, but it runs after the deferred Put at line 16`
	defer logPool.Put(b)
	b.WriteString(s)
}

// The Put deferred first runs last: silent.
func logFirst(w io.Writer, s string) {
	b := logPool.Get().(*bytes.Buffer)
	b.Reset()
	defer logPool.Put(b)
	defer func() { w.Write(b.Bytes()) }()
	b.WriteString(s)
}
