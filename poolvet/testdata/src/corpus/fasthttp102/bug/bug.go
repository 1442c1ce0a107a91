// Package bug reproduces the shape of valyala/fasthttp#102
// (https://github.com/valyala/fasthttp/pull/102): a load generator saw
// 16 MB and 32 MB body buffers pile up: Response bodies grow through the
// response's own append helper (appendBodyFixedSize) and ReleaseResponse
// puts the response back with whatever body capacity it reached; the PR
// added ReleaseBody(size) to drop large bodies before the release.
//
// Check: unbounded (growth through the pooled struct's own append helper;
// the Put is in a release wrapper).
package bug

import (
	"io"
	"sync"
)

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

var responsePool = sync.Pool{New: func() any { return &Response{} }}

func AcquireResponse() *Response { return responsePool.Get().(*Response) }

func ReleaseResponse(resp *Response) {
	resp.status = 0
	resp.body = resp.body[:0]
	responsePool.Put(resp) // want `capacity check|unbounded`
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
