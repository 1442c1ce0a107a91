// Package fixed is the fix suggested in valyala/fasthttp#1109
// (https://github.com/valyala/fasthttp/issues/1109): copy the body before
// the response goes back to the pool.
package fixed

import "sync"

type Response struct {
	body []byte
}

func (r *Response) Body() []byte { return r.body }

func (r *Response) SetBody(b []byte) { r.body = append(r.body[:0], b...) }

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

func QueryRequest(do func(*Response) error) []byte {
	resp := AcquireResponse()
	defer ReleaseResponse(resp)
	for {
		if err := do(resp); err != nil {
			continue
		}
		break
	}
	return append([]byte(nil), resp.Body()...)
}
