// Source: https://github.com/gofiber/fiber/pull/3830
// (commit 7a17195c52df19e9329e5f5e67bbb2a12c37d1a6, "fix: avoid writing into
// released Response in core::execFunc()").
//
// Bug: client core.execFunc acquired a pooled *Response (and a pooled error
// channel), handed both to the goroutine that performs the request, and on
// context cancellation released the Response straight back to the pool
// (ReleaseResponse) while that goroutine could still be copying the fasthttp
// response into resp.RawResponse. The atomic "done" flag did not prevent it:
// the goroutine may have won the CompareAndSwap just before the cancel. In
// the same way the error channel was returned to its pool by a deferred
// releaseErrChan when execFunc returned, although the goroutine still held
// it and could send into it afterwards, leaving a stale error in a pooled
// channel.
//
// Fix: the goroutine acquires the Response itself only after the request
// finished and hands it over through a pooled response channel; the
// channels are released by the goroutine (their last user), and on
// cancellation a drain goroutine receives and releases the Response.
//
// Check: useafterput (at the go statement, which lets the pooled errCh
// outlive execFunc past its deferred releaseErrChan, and at the
// ReleaseResponse in the ctx.Done branch, a plain Put after resp was handed
// to the still running goroutine)
package fixed

import (
	"context"
	"errors"
	"sync"
)

const (
	MethodGet  = "GET"
	MethodHead = "HEAD"
)

var ErrTimeoutOrCancel = errors.New("timeout or cancel")

type Client struct {
	mu sync.Mutex
	do func(req *Request, resp *Response) error
}

func (c *Client) Do(req *Request, resp *Response) error { return c.do(req, resp) }

func (c *Client) DoRedirects(req *Request, resp *Response, maxRedirects int) error {
	return c.do(req, resp)
}

type FiberRequest struct {
	RawRequest   *Request
	maxRedirects int
}

// ClientResponse is fiber's client.Response.
type ClientResponse struct {
	client  *Client
	request *FiberRequest

	RawResponse *Response
}

func (r *ClientResponse) setClient(c *Client)          { r.client = c }
func (r *ClientResponse) setRequest(req *FiberRequest) { r.request = req }

// Reset clears the Response object.
func (r *ClientResponse) Reset() {
	r.client = nil
	r.request = nil
	r.RawResponse.Reset()
}

var responsePool = &sync.Pool{
	New: func() any {
		return &ClientResponse{RawResponse: AcquireFHResponse()}
	},
}

// AcquireResponse returns an empty Response object from the pool.
func AcquireResponse() *ClientResponse {
	resp, ok := responsePool.Get().(*ClientResponse)
	if !ok {
		panic("unexpected type from responsePool.Get()")
	}
	return resp
}

// ReleaseResponse returns the Response object to the pool.
// Do not use the released Response afterward to avoid data races.
func ReleaseResponse(resp *ClientResponse) {
	resp.Reset()
	responsePool.Put(resp)
}

type core struct {
	ctx    context.Context
	client *Client
	req    *FiberRequest
}

// execFunc is the core logic to send the request and receive the response.
// It leverages the fasthttp client, optionally with retries or redirects.
func (c *core) execFunc() (*ClientResponse, error) {
	// do not close, these will be returned to the pool
	errChan := acquireErrChan()
	respChan := acquireResponseChan()

	go func() {
		// retain both channels until they are drained
		defer releaseErrChan(errChan)
		defer releaseResponseChan(respChan)

		reqv := AcquireRequest()
		defer ReleaseRequest(reqv)

		respv := AcquireFHResponse()
		defer ReleaseFHResponse(respv)

		c.req.RawRequest.CopyTo(reqv)

		var err error
		if c.req.maxRedirects > 0 && (string(reqv.Header.Method()) == MethodGet || string(reqv.Header.Method()) == MethodHead) {
			err = c.client.DoRedirects(reqv, respv, c.req.maxRedirects)
		} else {
			err = c.client.Do(reqv, respv)
		}

		if err != nil {
			errChan <- err
			return
		}

		resp := AcquireResponse()
		resp.setClient(c.client)
		resp.setRequest(c.req)
		respv.CopyTo(resp.RawResponse)
		respChan <- resp
	}()

	select {
	case err := <-errChan:
		return nil, err
	case resp := <-respChan:
		return resp, nil
	case <-c.ctx.Done():
		go func() { // drain the channels and release the response
			select {
			case resp := <-respChan:
				ReleaseResponse(resp)
			case <-errChan:
			}
		}()
		return nil, ErrTimeoutOrCancel
	}
}

var responseChanPool = &sync.Pool{
	New: func() any {
		return make(chan *ClientResponse)
	},
}

// acquireResponseChan returns an empty, non-closed *Response channel from the pool.
// The returned channel may be returned to the pool with releaseResponseChan
func acquireResponseChan() chan *ClientResponse {
	ch, ok := responseChanPool.Get().(chan *ClientResponse)
	if !ok {
		panic(errors.New("failed to type-assert to *Response"))
	}
	return ch
}

// releaseResponseChan returns the *Response channel to the pool.
// It's the caller's responsibility to ensure that:
// - the channel is not closed
// - the channel is drained before returning it
// - the channel is not reused after returning it
func releaseResponseChan(ch chan *ClientResponse) {
	responseChanPool.Put(ch)
}

var errChanPool = &sync.Pool{
	New: func() any {
		return make(chan error)
	},
}

// acquireErrChan returns an empty, non-closed error channel from the pool.
// The returned channel may be returned to the pool with releaseErrChan
func acquireErrChan() chan error {
	ch, ok := errChanPool.Get().(chan error)
	if !ok {
		panic(errors.New("failed to type-assert to chan error"))
	}
	return ch
}

// releaseErrChan returns the error channel to the pool.
//
// Do not use the released channel afterward to avoid data races.
func releaseErrChan(ch chan error) {
	errChanPool.Put(ch)
}
