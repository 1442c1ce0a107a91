// Package fixed is the fix of CVE-2023-45286 in go-resty/resty
// (https://github.com/go-resty/resty/pull/745): the middleware no longer
// releases the buffer; the body wrapper's Close is its only Put.
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

// requestBodyReleaser gives the buffer back when the transport closes the
// body.
type requestBodyReleaser struct {
	buf *bytes.Buffer
}

func (rr *requestBodyReleaser) Read(p []byte) (int, error) { return rr.buf.Read(p) }

func (rr *requestBodyReleaser) Close() error {
	releaseBuffer(rr.buf)
	return nil
}

type Request struct {
	bodyBuf *bytes.Buffer
}

func (r *Request) Execute(body []byte, retries int, send func(*requestBodyReleaser) error) error {
	var err error
	for attempt := 0; attempt <= retries; attempt++ {
		r.bodyBuf = acquireBuffer()
		r.bodyBuf.Write(body)
		rc := &requestBodyReleaser{buf: r.bodyBuf}
		err = send(rc)
		rc.Close()
		if err == nil {
			break
		}
	}
	return err
}
