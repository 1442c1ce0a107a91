// Package bug reproduces the shape of valyala/fasthttp#955
// (https://github.com/valyala/fasthttp/issues/955): inside a retry
// callback, the response was acquired with a deferred ReleaseResponse and
// its Body() stored into a variable of the enclosing function, which was
// returned after the retry finished: truncated bodies and bodies mixed
// with another connection's data.
//
// Check: useafterput (an alias stored into a captured variable inside a
// closure whose deferred release gives the response back).
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
		respBodyBytes = resp.Body() // want `shares memory|used after|useafterput|escape`
		return nil
	})
	return respBodyBytes, err
}
