// Package bug reproduces the shape of CVE-2023-45286 in go-resty/resty
// v2.10.0 (golang/vulndb#2328, reported in go-resty/resty#739 and #743,
// fix PR #745, https://github.com/golang/vulndb/issues/2328): with retries
// enabled, the request body buffer was released to the pool after every
// attempt, so a retry put the same *bytes.Buffer into the pool again; two
// later requests then shared it and one request's body leaked into
// another's.
//
// Check: doubleput (a Put in a retry loop of an object got before it).
package bug

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
		releaseBuffer(buf) // want `twice|again|more than once|doubleput`
		if err == nil {
			break
		}
	}
	return err
}
