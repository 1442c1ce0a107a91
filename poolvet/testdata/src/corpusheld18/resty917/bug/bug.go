// Package bug reproduces the shape of go-resty/resty#917
// (https://github.com/go-resty/resty/issues/917, fixed by
// https://github.com/go-resty/resty/pull/919, commit 9a9930f). With
// SetContentLength and an io.Reader body, the request body is read once
// into a pooled bytes.Buffer (r.bodyBuf). Every attempt of the retry loop
// wrapped the transport body in a new requestBodyReleaser whose Close puts
// r.bodyBuf back into the pool (guarded by a sync.Once that belongs to that
// one releaser), so with retries the same buffer went back to the pool once
// per attempt while the request kept using it: bodies of concurrent
// requests were concatenated or swapped.
//
// Check: doubleput (one pooled buffer put back by the Close of a new
// releaser on every iteration of the retry loop; the Once guards only its
// own releaser). Reported at the execute call in the retry loop, which
// reaches the Put again through executeBefore's releaser and the
// transport's Close of the body. (The second attempt also reads the buffer
// after the first attempt put it back; that use is on the same call and is
// not marked separately.)
package bug

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

const maxPooledBufferSize = 1 << 20

var bufPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

func acquireBuffer() *bytes.Buffer {
	return bufPool.Get().(*bytes.Buffer)
}

func releaseBuffer(buf *bytes.Buffer) {
	if buf != nil {
		if buf.Cap() > maxPooledBufferSize {
			return // not in resty; keeps this case about one check
		}
		buf.Reset()
		bufPool.Put(buf)
	}
}

// requestBodyReleaser wraps the request's body; its Close closes the body
// and releases the request buffer back to the pool.
type requestBodyReleaser struct {
	releaseOnce sync.Once
	reqBuf      *bytes.Buffer
	io.ReadCloser
}

func newRequestBodyReleaser(body io.ReadCloser, reqBuf *bytes.Buffer) io.ReadCloser {
	if reqBuf == nil {
		return body
	}
	return &requestBodyReleaser{reqBuf: reqBuf, ReadCloser: body}
}

func (rr *requestBodyReleaser) Close() error {
	err := rr.ReadCloser.Close()
	rr.releaseOnce.Do(func() {
		releaseBuffer(rr.reqBuf)
	})
	return err
}

type Request struct {
	Body    io.Reader
	bodyBuf *bytes.Buffer
	rawBody io.ReadCloser
	sent    []byte
}

type Client struct {
	RetryCount int
	failures   int
}

func parseRequestBody(r *Request) error {
	if r.Body != nil {
		r.bodyBuf = acquireBuffer()
		if _, err := r.bodyBuf.ReadFrom(r.Body); err != nil {
			return err
		}
		r.Body = nil
	}
	return nil
}

func (c *Client) executeBefore(r *Request) error {
	if err := parseRequestBody(r); err != nil {
		return err
	}
	var body io.ReadCloser
	if r.bodyBuf != nil {
		body = io.NopCloser(bytes.NewReader(r.bodyBuf.Bytes()))
	}
	r.rawBody = newRequestBodyReleaser(body, r.bodyBuf)
	return nil
}

// roundTrip stands for the HTTP transport: it sends the body and closes it.
func (c *Client) roundTrip(r *Request) (int, error) {
	if r.rawBody == nil {
		return 200, nil
	}
	defer r.rawBody.Close()
	b, err := io.ReadAll(r.rawBody)
	if err != nil {
		return 0, err
	}
	r.sent = append(r.sent[:0], b...)
	if c.failures > 0 {
		c.failures--
		return 500, nil
	}
	return 200, nil
}

func (c *Client) execute(r *Request) (int, error) {
	if err := c.executeBefore(r); err != nil {
		return 0, err
	}
	return c.roundTrip(r)
}

var errServer = errors.New("server error")

func (r *Request) Execute(c *Client) (int, error) {
	var status int
	var err error
	for attempt := 0; attempt <= c.RetryCount; attempt++ {
		status, err = c.execute(r) // want `doubleput`
		if err == nil && status < 500 {
			return status, nil
		}
	}
	if err == nil {
		err = errServer
	}
	return status, err
}
