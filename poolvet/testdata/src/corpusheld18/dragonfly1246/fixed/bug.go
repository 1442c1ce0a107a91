// Package fixed is the fix of dragonflyoss/dragonfly-archived#1246
// (https://github.com/dragonflyoss/dragonfly-archived/pull/1246): the body is
// copied into a fresh slice before the deferred release runs.
package fixed

import (
	"sync"
	"time"
)

const maxPooledBody = 1 << 20

type Request struct {
	uri     string
	method  string
	headers map[string]string
	body    []byte
}

func (r *Request) Reset() {
	r.uri = ""
	r.method = ""
	r.headers = nil
	r.body = nil
}

type Response struct {
	status int
	body   []byte
}

func (r *Response) Reset() {
	r.status = 0
	if cap(r.body) > maxPooledBody {
		r.body = nil
	} else {
		r.body = r.body[:0]
	}
}

func (r *Response) Body() []byte    { return r.body }
func (r *Response) StatusCode() int { return r.status }

var (
	requestPool  = sync.Pool{New: func() any { return new(Request) }}
	responsePool = sync.Pool{New: func() any { return new(Response) }}
)

func AcquireRequest() *Request { return requestPool.Get().(*Request) }

func ReleaseRequest(r *Request) {
	r.Reset()
	requestPool.Put(r)
}

func AcquireResponse() *Response { return responsePool.Get().(*Response) }

func ReleaseResponse(r *Response) {
	r.Reset()
	responsePool.Put(r)
}

var Transport func(req *Request, resp *Response, timeout time.Duration) error

type requestSetFunc func(req *Request) error

func do(url string, headers map[string]string, timeout time.Duration, rsf requestSetFunc) (statusCode int, body []byte, err error) {
	req := AcquireRequest()
	defer ReleaseRequest(req)

	req.uri = url
	for k, v := range headers {
		if req.headers == nil {
			req.headers = make(map[string]string)
		}
		req.headers[k] = v
	}
	if rsf != nil {
		err = rsf(req)
		if err != nil {
			return
		}
	}

	resp := AcquireResponse()
	defer ReleaseResponse(resp)

	err = Transport(req, resp, timeout)
	if err != nil {
		return
	}

	statusCode = resp.StatusCode()
	data := resp.Body()
	body = make([]byte, len(data))
	copy(body, data)
	return
}

func GetWithHeaders(url string, headers map[string]string, timeout time.Duration) (int, []byte, error) {
	return do(url, headers, timeout, nil)
}
