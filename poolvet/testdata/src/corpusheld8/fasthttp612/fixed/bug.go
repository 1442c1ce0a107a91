// Package fixed is the fixed twin of valyala/fasthttp#612
// (https://github.com/valyala/fasthttp/issues/612): a GET helper acquired a
// pooled request and response, released both in a deferred closure and
// returned resp.Body(). The body slice belongs to the pooled response, so
// the next request that acquired it overwrote the bytes the caller got back
// (the reporter saw truncated responses); the maintainer's answer was that
// Body() must not be used after ReleaseResponse.
//
// Fix (the maintainer's advice): copy the body out before the deferred
// release runs.
package fixed

import (
	"errors"
	"strconv"
	"sync"
	"time"
)

const maxKeptBody = 1 << 20

type Request struct {
	uri    string
	method string
}

func (r *Request) SetRequestURI(uri string) { r.uri = uri }
func (r *Request) SetMethod(m string)       { r.method = m }

func (r *Request) Reset() {
	r.uri = ""
	r.method = ""
}

type Response struct {
	status int
	body   []byte
}

func (r *Response) StatusCode() int { return r.status }

// Body returns the response body. It is valid until the response is released.
func (r *Response) Body() []byte { return r.body }

func (r *Response) Reset() {
	r.status = 0
	if cap(r.body) > maxKeptBody {
		r.body = nil
	} else {
		r.body = r.body[:0]
	}
}

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

// Client stands in for the HTTP client: it fills resp from req.
type Client struct {
	fetch func(uri string, deadline time.Time) (int, []byte, error)
}

func (c *Client) DoTimeout(req *Request, resp *Response, timeout time.Duration) error {
	status, payload, err := c.fetch(req.uri, time.Now().Add(timeout))
	if err != nil {
		return err
	}
	resp.status = status
	resp.body = append(resp.body[:0], payload...)
	return nil
}

// Get fetches uri and returns the body of a 200 response.
func Get(c *Client, uri string, timeout time.Duration) ([]byte, error) {
	req := AcquireRequest()
	resp := AcquireResponse()
	defer func() {
		ReleaseRequest(req)
		ReleaseResponse(resp)
	}()

	req.SetRequestURI(uri)
	req.SetMethod("GET")
	if err := c.DoTimeout(req, resp, timeout); err != nil {
		return nil, err
	}
	if resp.StatusCode() != 200 {
		return nil, errors.New(strconv.Itoa(resp.StatusCode()))
	}
	return append([]byte(nil), resp.Body()...), nil
}
