// Package bug reproduces the shape of valyala/fasthttp#1109
// (https://github.com/valyala/fasthttp/issues/1109): queryRequest returned
// resp.Body() with a deferred ReleaseResponse; under load the returned
// bytes contained parts of other responses, because the body is reused once
// the response goes back to the pool. The maintainer's answer: Body() is
// invalid after ReleaseResponse.
//
// Check: useafterput (an alias returned past a deferred release wrapper).
package bug

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
	return resp.Body() // want `shares memory|used after|useafterput`
}
