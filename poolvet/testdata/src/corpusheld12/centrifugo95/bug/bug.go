// Package bug reproduces the shape of centrifugal/centrifugo#95
// (https://github.com/centrifugal/centrifugo/pull/95, for #94): responses
// were marshalled to JSON by hand into a pooled buffer, and the buffer went
// back to the pool before the marshalled bytes were handed to the caller.
// Under concurrent Marshal calls another response was written over them.
//
// Check: useafterput (slice taken from the buffer before an explicit Put,
// returned after it).
package bug

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
	data := buf.Bytes()
	putBuffer(buf)
	return data, nil // want `useafterput`
}
