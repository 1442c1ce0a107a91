// Package bug reproduces the shape of kubernetes/klog#364
// (https://github.com/kubernetes/klog/issues/364, fixed by
// https://github.com/kubernetes/klog/pull/366): when klog's free list of
// log-line buffers became a sync.Pool, PutBuffer stopped discarding big
// buffers. One huge log line left a huge buffer in the pool for every later
// line to reuse (golang/go#23199).
//
// Check: unbounded (a pointer to a struct embedding bytes.Buffer, grown by
// the caller, put into a sync.Pool with no size check).
package bug

import (
	"bytes"
	"io"
	"sync"
)

// Buffer holds a bytes.Buffer for reuse plus scratch space for headers.
type Buffer struct {
	bytes.Buffer
	Tmp [64]byte
}

var buffers = sync.Pool{
	New: func() any { return new(Buffer) },
}

// GetBuffer returns a new, ready-to-use buffer.
func GetBuffer() *Buffer {
	b := buffers.Get().(*Buffer)
	b.Reset()
	return b
}

// PutBuffer returns a buffer to the free list.
func PutBuffer(b *Buffer) {
	buffers.Put(b) // want `unbounded`
}

// Output formats one log line and writes it out.
func Output(w io.Writer, prefix string, args []string) error {
	b := GetBuffer()
	b.WriteString(prefix)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	PutBuffer(b)
	return err
}
