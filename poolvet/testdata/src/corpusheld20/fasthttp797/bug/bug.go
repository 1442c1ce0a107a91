// Package bug reproduces the shape of valyala/fasthttp#797
// (https://github.com/valyala/fasthttp/issues/797): a client helper acquires a
// pooled Request and Response, defers their release, performs the call and then
// returns resp.Body() together with the status code. The body slice aliases the
// Response's internal buffer, and the deferred ReleaseResponse runs as the
// function returns, handing the Response (and its buffer) back to the pool while
// the caller still reads the returned bytes. Concurrent requests then reuse the
// buffer, which the race detector flags and which corrupts the JSON decoded by
// the caller. The fix copies the body before the release.
// Check: useafterput (the return statement that leaks resp.Body() past the
// deferred ReleaseResponse).
package bug

import (
	"encoding/json"
	"errors"
	"sync"
)

const maxPooledBody = 64 << 10

// Request is a minimal stand-in for fasthttp.Request.
type Request struct {
	uri []byte
}

// SetRequestURI stores the target URI.
func (r *Request) SetRequestURI(uri string) { r.uri = append(r.uri[:0], uri...) }

// Reset clears the request.
func (r *Request) Reset() { r.uri = r.uri[:0] }

// Response is a minimal stand-in for fasthttp.Response.
type Response struct {
	statusCode int
	body       []byte
}

// Body returns the response body. The slice is only valid until the response
// is released.
func (r *Response) Body() []byte { return r.body }

// StatusCode returns the status code.
func (r *Response) StatusCode() int { return r.statusCode }

// Reset clears the response but keeps its buffer for reuse.
func (r *Response) Reset() {
	r.statusCode = 0
	if cap(r.body) > maxPooledBody {
		r.body = nil
	} else {
		r.body = r.body[:0]
	}
}

var (
	requestPool  sync.Pool
	responsePool sync.Pool
)

// AcquireRequest returns an empty Request from the pool.
func AcquireRequest() *Request {
	if v := requestPool.Get(); v != nil {
		return v.(*Request)
	}
	return &Request{}
}

// ReleaseRequest returns req to the pool.
func ReleaseRequest(req *Request) {
	req.Reset()
	requestPool.Put(req)
}

// AcquireResponse returns an empty Response from the pool.
func AcquireResponse() *Response {
	if v := responsePool.Get(); v != nil {
		return v.(*Response)
	}
	return &Response{}
}

// ReleaseResponse returns resp to the pool; its body must not be used after.
func ReleaseResponse(resp *Response) {
	resp.Reset()
	responsePool.Put(resp)
}

// Do performs the request, filling resp.
func Do(req *Request, resp *Response) error {
	if len(req.uri) == 0 {
		return errors.New("missing uri")
	}
	resp.statusCode = 200
	resp.body = append(resp.body[:0], `{"val":42}`...)
	return nil
}

// Result is what the handler answers.
type Result struct {
	Val int `json:"val"`
}

func doGet(url string) (respBody []byte, statusCode int) {
	req := AcquireRequest()
	resp := AcquireResponse()
	defer ReleaseRequest(req)
	defer ReleaseResponse(resp)
	req.SetRequestURI(url)
	if err := Do(req, resp); err != nil {
		panic(err)
	}
	return resp.Body(), resp.StatusCode() // want `useafterput`
}

// Poll fetches url and decodes the result.
func Poll(url string) (Result, error) {
	var r Result
	body, code := doGet(url)
	if code != 200 {
		return r, errors.New("unexpected status")
	}
	err := json.Unmarshal(body, &r)
	return r, err
}
