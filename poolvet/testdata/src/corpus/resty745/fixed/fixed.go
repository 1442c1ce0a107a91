// Package fixed is a fixed twin of CVE-2023-45286 in go-resty/resty
// (https://github.com/golang/vulndb/issues/2328): the buffer is released
// once, after the last attempt.
package fixed

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func acquireBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func releaseBuffer(b *bytes.Buffer) {
	if b == nil || b.Cap() > 1<<20 {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

func Execute(body []byte, retries int, send func([]byte) error) error {
	buf := acquireBuffer()
	buf.Write(body)
	var err error
	for attempt := 0; attempt <= retries; attempt++ {
		err = send(buf.Bytes())
		if err == nil {
			break
		}
	}
	releaseBuffer(buf)
	return err
}
