// Package bug reproduces the shape of CVE-2023-45286 in go-resty/resty
// v2.10.0 (golang/vulndb#2328, reported in go-resty/resty#739 and #743,
// fixed by #745, https://github.com/go-resty/resty/pull/745): the request
// body wrapper put the body buffer back into the pool when the body was
// closed, and on a retry the middleware released the previous attempt's
// buffer again; the same *bytes.Buffer was then in the pool twice, and one
// request's body leaked into another's.
//
// Check: doubleput (a Put in a Close method, then a second Put of the same
// buffer on the retry path).
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
		if attempt > 0 {
			releaseBuffer(r.bodyBuf) // want `twice|again|more than once|doubleput`
		}
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
