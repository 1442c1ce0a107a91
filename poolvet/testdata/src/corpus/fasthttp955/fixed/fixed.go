// Package fixed is a fixed twin of valyala/fasthttp#955
// (https://github.com/valyala/fasthttp/issues/955): the body is copied
// before the deferred release runs.
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

func retryDo(f func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

func Call(do func(*Response) error) ([]byte, error) {
	var respBodyBytes []byte
	err := retryDo(func() error {
		resp := AcquireResponse()
		defer ReleaseResponse(resp)
		if err := do(resp); err != nil {
			return err
		}
		respBodyBytes = append([]byte(nil), resp.Body()...)
		return nil
	})
	return respBodyBytes, err
}
