// Package bug reproduces the shape of a double release fixed in
// gofiber/fiber commit 2c18558947e814ad925175baabbf1e7455a4f745
// (https://github.com/gofiber/fiber/commit/2c18558947e814ad925175baabbf1e7455a4f745,
// "fix(aigateway): address code-review findings"): the gateway's retry loop
// called client.ReleaseRequest(req) whenever req.Send() returned an error,
// but Send already releases the request on its after-hooks error path
// (resp.Close() puts both the response and the request it carries), so on
// that path the same *Request went back to the pool twice.
//
// Check: doubleput (the callee puts the object on one of its error paths,
// the caller puts it again on every error). The want is at the caller's
// ReleaseRequest, the second Put.
package bug

import (
	"errors"
	"sync"
)

type Request struct {
	url    string
	method string
	body   []byte
}

func (r *Request) Reset() {
	r.url = ""
	r.method = ""
	r.body = nil
}

type Response struct {
	request *Request
	status  int
	body    []byte
}

func (r *Response) Reset() {
	r.request = nil
	r.status = 0
	r.body = nil
}

var requestPool = sync.Pool{New: func() any { return new(Request) }}

var responsePool = sync.Pool{New: func() any { return new(Response) }}

func AcquireRequest() *Request { return requestPool.Get().(*Request) }

func ReleaseRequest(req *Request) {
	req.Reset()
	requestPool.Put(req)
}

func AcquireResponse() *Response { return responsePool.Get().(*Response) }

func ReleaseResponse(resp *Response) {
	resp.Reset()
	responsePool.Put(resp)
}

// Close releases the response and the request it was made for.
func (r *Response) Close() {
	if r.request != nil {
		tmp := r.request
		r.request = nil
		ReleaseRequest(tmp)
	}
	ReleaseResponse(r)
}

var errHook = errors.New("after hook failed")

type transport interface {
	RoundTrip(url, method string, body []byte) (int, []byte, error)
}

type core struct {
	tr         transport
	afterHooks []func(*Response) error
}

func (c *core) execFunc(req *Request) (*Response, error) {
	status, body, err := c.tr.RoundTrip(req.url, req.method, req.body)
	if err != nil {
		return nil, err
	}
	resp := AcquireResponse()
	resp.request = req
	resp.status = status
	resp.body = body
	return resp, nil
}

func (c *core) runAfterHooks(resp *Response) error {
	for _, h := range c.afterHooks {
		if err := h(resp); err != nil {
			return errors.Join(errHook, err)
		}
	}
	return nil
}

// execute sends req; when an after hook fails it closes the response,
// which also releases req.
func (c *core) execute(req *Request) (*Response, error) {
	resp, err := c.execFunc(req)
	if err != nil {
		return nil, err
	}
	if err := c.runAfterHooks(resp); err != nil {
		resp.Close()
		return nil, err
	}
	return resp, nil
}

type Upstream struct {
	URL string
}

func buildRequest(up *Upstream, path string, body []byte) *Request {
	req := AcquireRequest()
	req.url = up.URL + path
	req.method = "POST"
	req.body = body
	return req
}

func retryable(status int) bool { return status == 429 || status >= 500 }

func sendWithRetry(c *core, ups []Upstream, path string, body []byte, attempts int) (*Response, error) {
	var lastResp *Response
	var lastErr error
	for i := range ups {
		up := &ups[i]
		for attempt := 1; attempt <= attempts; attempt++ {
			req := buildRequest(up, path, body)
			resp, err := c.execute(req)
			if err != nil {
				ReleaseRequest(req) // want `doubleput`
				lastErr = err
				continue
			}
			if !retryable(resp.status) {
				if lastResp != nil {
					lastResp.Close()
				}
				return resp, nil
			}
			if lastResp != nil {
				lastResp.Close()
			}
			lastResp = resp
		}
	}
	if lastResp != nil {
		return lastResp, nil
	}
	return nil, lastErr
}
