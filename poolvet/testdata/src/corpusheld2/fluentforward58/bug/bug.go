// Package bug reproduces the shape of IBM/fluent-forward-go#58 (https://github.com/IBM/fluent-forward-go/issues/58): the forward-protocol transport encoded each message into a *bytes.Buffer from a sync.Pool and put every buffer back whatever it had grown to. As the issue explains (citing golang/go#27735 and #23199), a rare very large message leaves an oversized buffer in the pool, and over time all pooled buffers can drift to the largest size ever seen.
//
// Check: unbounded (growable buffer put back with no capacity check).
package bug

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteMessage encodes a tagged batch of records and writes it to w.
func WriteMessage(w io.Writer, tag string, records [][]byte) error {
	buf := bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufferPool.Put(buf) // want `capacity check|unbounded`

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
