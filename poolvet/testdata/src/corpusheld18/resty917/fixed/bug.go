// Package fixed is go-resty/resty#917 after PR #919: the per-attempt body
// releaser is gone; Execute puts r.bodyBuf back into the pool once, after
// the retry loop has finished with it.
package fixed

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
	r.rawBody = nil
	if r.bodyBuf != nil {
		r.rawBody = io.NopCloser(bytes.NewReader(r.bodyBuf.Bytes()))
	}
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
		status, err = c.execute(r)
		if err == nil && status < 500 {
			r.rawBody = nil
			releaseBuffer(r.bodyBuf)
			r.bodyBuf = nil
			return status, nil
		}
	}
	r.rawBody = nil
	releaseBuffer(r.bodyBuf)
	r.bodyBuf = nil
	if err == nil {
		err = errServer
	}
	return status, err
}
