// Package fixed is kubernetes/klog#364 with the fix of klog#366: PutBuffer
// lets buffers of 256 bytes or more die instead of pooling them.
package fixed

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

// PutBuffer returns a buffer to the free list unless it grew big.
func PutBuffer(b *Buffer) {
	if b.Len() >= 256 {
		return
	}
	buffers.Put(b)
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
