// Package fixed is the fixed twin of dapr/dapr#1839
// (https://github.com/dapr/dapr/pull/1839, "Clone appchannel response body
// to prevent GC"): the HTTP app channel acquired a pooled fasthttp Response
// with a deferred release, and the invoke response it returned kept
// resp.Body() as its raw data. Once the response was released and reused,
// the data sent back to the gRPC caller was corrupted under load. The fix
// cloned the body before building the invoke response.
//
// Fix (as in the PR): the body is cloned before it is stored in the invoke
// response. No check should report here.
package fixed

import (
	"strings"
	"sync"
)

const maxPooledBody = 1 << 20

// Response stands in for fasthttp.Response: its body is reused across
// acquisitions.
type Response struct {
	status int
	body   []byte
}

func (r *Response) StatusCode() int { return r.status }

// Body returns the response's own bytes, not a copy.
func (r *Response) Body() []byte { return r.body }

func (r *Response) Reset() {
	r.status = 0
	r.body = r.body[:0]
}

var responsePool = sync.Pool{New: func() any { return new(Response) }}

func AcquireResponse() *Response {
	r := responsePool.Get().(*Response)
	r.Reset()
	return r
}

func ReleaseResponse(r *Response) {
	r.Reset()
	if cap(r.body) > maxPooledBody {
		return
	}
	responsePool.Put(r)
}

// client fakes the app's HTTP server.
type client struct{}

func (client) Do(method string, resp *Response) error {
	resp.status = 200
	resp.body = append(resp.body, `{"method":"`...)
	resp.body = append(resp.body, strings.ToLower(method)...)
	resp.body = append(resp.body, `"}`...)
	return nil
}

// InvokeMethodResponse is what the channel hands back to the gRPC layer.
type InvokeMethodResponse struct {
	code        int32
	contentType string
	data        []byte
}

func NewInvokeMethodResponse(code int32) *InvokeMethodResponse {
	return &InvokeMethodResponse{code: code}
}

func (r *InvokeMethodResponse) WithRawData(data []byte, contentType string) *InvokeMethodResponse {
	r.data = data
	r.contentType = contentType
	return r
}

func (r *InvokeMethodResponse) Data() []byte { return r.data }

type Channel struct {
	cli client
}

func (h *Channel) parseChannelResponse(resp *Response) *InvokeMethodResponse {
	// Clone the body: the response goes back to the pool when the caller
	// returns, the invoke response outlives it.
	body := make([]byte, len(resp.Body()))
	copy(body, resp.Body())
	rsp := NewInvokeMethodResponse(int32(resp.StatusCode()))
	rsp.WithRawData(body, "application/json")
	return rsp
}

func (h *Channel) InvokeMethod(method string) (*InvokeMethodResponse, error) {
	resp := AcquireResponse()
	defer ReleaseResponse(resp)

	if err := h.cli.Do(method, resp); err != nil {
		return nil, err
	}
	rsp := h.parseChannelResponse(resp)
	return rsp, nil
}
