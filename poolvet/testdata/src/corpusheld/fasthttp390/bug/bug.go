// Package bug reproduces the shape of valyala/fasthttp#390
// (https://github.com/valyala/fasthttp/issues/390): the caller kept
// res.Body(), released the response, and used the body afterwards; the
// maintainers confirmed the bytes are reused for the next response once
// ReleaseResponse puts it back into the pool.
//
// Check: useafterput (an alias used after an explicit release wrapper).
package bug

import "sync"

type Response struct {
	body []byte
}

func (r *Response) Body() []byte { return r.body }

var responsePool sync.Pool

func AcquireResponse() *Response {
	v := responsePool.Get()
	if v == nil {
		return &Response{}
	}
	return v.(*Response)
}

func ReleaseResponse(r *Response) {
	if cap(r.body) > 1<<20 {
		return
	}
	r.body = r.body[:0]
	responsePool.Put(r)
}

func Fetch(do func(*Response) error, consume func([]byte)) error {
	res := AcquireResponse()
	if err := do(res); err != nil {
		ReleaseResponse(res)
		return err
	}
	body := res.Body()
	ReleaseResponse(res)
	consume(body) // want `used after|useafterput`
	return nil
}
