// Source: https://github.com/erkexzcx/stoppropaganda/pull/73
// (commit bdd16864d126f2e5e495835c6c77b2eac0710428, "fix: one response
// object used multiple times"); issue
// https://github.com/erkexzcx/stoppropaganda/issues/72 ("fasthttp: crash
// SIGSEGV bytebufferpool.Reset").
//
// Website.Start runs several worker goroutines. Each worker acquired one
// *fasthttp.Response from fasthttp's response pool before its loop, and
// released it with fasthttp.ReleaseResponse at the end of every iteration.
// The next iteration kept using the released response for DoTimeout, while
// the pool could already have handed the same object to another worker, so
// two goroutines read bodies into the same response and its pooled body
// buffer (panic in bytebufferpool.(*ByteBuffer).Reset). The fix acquires a
// fresh response inside the loop, right before each request.
//
// Fixed version: a response is acquired for every request inside the loop.
package fixed

import (
	"io"
	"sync"
	"time"
)

// ByteBuffer mirrors valyala/bytebufferpool.ByteBuffer.
type ByteBuffer struct {
	B []byte
}

// Reset makes bb.B empty.
func (b *ByteBuffer) Reset() {
	b.B = b.B[:0]
}

var responseBodyPool sync.Pool

// Response mirrors the parts of fasthttp.Response used here.
type Response struct {
	statusCode int
	body       *ByteBuffer
}

func (resp *Response) bodyBuffer() *ByteBuffer {
	if resp.body == nil {
		v := responseBodyPool.Get()
		if v == nil {
			v = &ByteBuffer{}
		}
		resp.body = v.(*ByteBuffer)
	}
	return resp.body
}

// ReadBody reads the response body into the pooled body buffer.
func (resp *Response) ReadBody(r io.Reader) error {
	bb := resp.bodyBuffer()
	bb.Reset()
	b, err := io.ReadAll(r)
	bb.B = append(bb.B, b...)
	return err
}

// StatusCode returns the response status code.
func (resp *Response) StatusCode() int {
	return resp.statusCode
}

// BodyWriteTo writes the response body to w.
func (resp *Response) BodyWriteTo(w io.Writer) error {
	if resp.body == nil {
		return nil
	}
	_, err := w.Write(resp.body.B)
	return err
}

// Reset clears the response and returns its body buffer to its pool.
func (resp *Response) Reset() {
	resp.statusCode = 0
	if resp.body != nil {
		resp.body.Reset()
		responseBodyPool.Put(resp.body)
		resp.body = nil
	}
}

var responsePool sync.Pool

// AcquireResponse returns an empty Response instance from response pool.
func AcquireResponse() *Response {
	v := responsePool.Get()
	if v == nil {
		return &Response{}
	}
	return v.(*Response)
}

// ReleaseResponse returns resp acquired via AcquireResponse to response pool.
func ReleaseResponse(resp *Response) {
	resp.Reset()
	responsePool.Put(resp)
}

// Request stands in for fasthttp.Request.
type Request struct {
	uri string
}

// Client stands in for fasthttp.Client.
type Client struct {
	dial func(uri string) (io.Reader, int, error)
}

// DoTimeout performs req and reads the answer into resp.
func (c *Client) DoTimeout(req *Request, resp *Response, timeout time.Duration) error {
	r, code, err := c.dial(req.uri)
	if err != nil {
		return err
	}
	resp.statusCode = code
	return resp.ReadBody(r)
}

var httpClient = &Client{}

var flagTimeout = 10 * time.Second
var flagWorkers = 20

type Website struct {
	Requests        uint
	Errors          uint
	LastErrorMsg    string
	Counter_code200 uint
	Counter_code500 uint

	mux *sync.Mutex
}

func (ws *Website) Start(endpoint string) {
	// Create request
	req := &Request{uri: endpoint}

	f := func() {
		// Create response

		for {
			// Perform request
			resp := AcquireResponse()
			err := httpClient.DoTimeout(req, resp, flagTimeout)
			if err != nil {
				ws.mux.Lock()
				ws.Requests++
				ws.Errors++
				ws.LastErrorMsg = err.Error()
				ws.mux.Unlock()
				continue
			}
			responseCode := resp.StatusCode()

			// Increase counters
			ws.mux.Lock()
			ws.Requests++
			if responseCode < 300 {
				ws.Counter_code200++
			} else {
				ws.Counter_code500++
			}
			ws.mux.Unlock()

			// Download content, to waste traffic
			if err = resp.BodyWriteTo(io.Discard); err != nil {
				ws.mux.Lock()
				ws.Errors++
				ws.LastErrorMsg = err.Error()
				ws.mux.Unlock()
			}
			ReleaseResponse(resp)
		}
	}

	for i := 0; i < flagWorkers; i++ {
		go f()
	}
}
