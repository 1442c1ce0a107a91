// Package fixed is the answer in valyala/fasthttp#390
// (https://github.com/valyala/fasthttp/issues/390): use (or copy) the body
// before releasing the response.
package fixed

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
	body := append([]byte(nil), res.Body()...)
	ReleaseResponse(res)
	consume(body)
	return nil
}
