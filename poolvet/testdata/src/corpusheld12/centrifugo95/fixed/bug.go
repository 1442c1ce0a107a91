// Package fixed is centrifugal/centrifugo#95 after the fix: the marshalled
// bytes are copied out of the pooled buffer before the buffer goes back.
package fixed

import (
	"bytes"
	"strconv"
	"sync"
)

const maxPooledBuffer = 64 << 10

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

type response struct {
	UID    string
	Method string
	Body   []byte
	Error  string
}

func (r *response) Marshal() ([]byte, error) {
	buf := getBuffer()
	buf.WriteString(`{"uid":`)
	buf.WriteString(strconv.Quote(r.UID))
	buf.WriteString(`,"method":`)
	buf.WriteString(strconv.Quote(r.Method))
	if r.Error != "" {
		buf.WriteString(`,"error":`)
		buf.WriteString(strconv.Quote(r.Error))
	}
	buf.WriteString(`,"body":`)
	buf.Write(r.Body)
	buf.WriteByte('}')
	data := make([]byte, buf.Len())
	copy(data, buf.Bytes())
	putBuffer(buf)
	return data, nil
}
