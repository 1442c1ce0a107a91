// Package fixed is a fixed twin of valyala/fasthttp#102
// (https://github.com/valyala/fasthttp/pull/102): bodies above a bound are
// dropped (set to nil) before the response goes back to the pool.
package fixed

import (
	"io"
	"sync"
)

const maxRetainedBody = 1 << 20

type Response struct {
	status int
	body   []byte
}

func (resp *Response) appendBodyFixedSize(r io.Reader, n int) error {
	start := len(resp.body)
	resp.body = append(resp.body, make([]byte, n)...)
	_, err := io.ReadFull(r, resp.body[start:])
	return err
}

// ReleaseBody drops the body buffer if it grew past size.
func (resp *Response) ReleaseBody(size int) {
	if cap(resp.body) > size {
		resp.body = nil
	}
}

var responsePool = sync.Pool{New: func() any { return &Response{} }}

func AcquireResponse() *Response { return responsePool.Get().(*Response) }

func ReleaseResponse(resp *Response) {
	resp.ReleaseBody(maxRetainedBody)
	resp.status = 0
	resp.body = resp.body[:0]
	responsePool.Put(resp)
}

func Replay(r io.Reader, size int, sink func([]byte)) error {
	resp := AcquireResponse()
	defer ReleaseResponse(resp)
	if err := resp.appendBodyFixedSize(r, size); err != nil {
		return err
	}
	sink(resp.body)
	return nil
}
