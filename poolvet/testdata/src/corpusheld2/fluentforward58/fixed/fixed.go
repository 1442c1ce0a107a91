// Package fixed is the repaired twin of IBM/fluent-forward-go#58 (https://github.com/IBM/fluent-forward-go/issues/58): buffers that grew past a cap are dropped instead of being put back (the remedy suggested in golang/go#27735).
package fixed

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

const maxPooledBuffer = 64 << 10

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	bufferPool.Put(b)
}

// WriteMessage encodes a tagged batch of records and writes it to w.
func WriteMessage(w io.Writer, tag string, records [][]byte) error {
	buf := bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer putBuffer(buf)

	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(tag)))
	buf.Write(n[:])
	buf.WriteString(tag)
	for _, r := range records {
		binary.BigEndian.PutUint32(n[:], uint32(len(r)))
		buf.Write(n[:])
		buf.Write(r)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
