// Package bug reproduces the shape of weibocom/motan-go#403
// (https://github.com/weibocom/motan-go/pull/403): the agent's httpCall
// fell back to a plain HTTP call with a pooled fasthttp response and a
// deferred ReleaseResponse, then converted it with
// FasthttpResponseToMotanResponse, which assigns the response body (and the
// response itself) into the returned pooled HttpMotanResponse. The motan
// response went back to the caller after the fasthttp response was recycled.
//
// Check: useafterput (retention: a helper stores a view of the released
// object into a struct passed as an interface; that struct is returned past
// the deferred release; report at the `return res`).
package bug

import (
	"errors"
	"sync"
)

const maxPooledBody = 1 << 20

// HTTPResponse models fasthttp.Response.
type HTTPResponse struct {
	status  int
	headers map[string]string
	body    []byte
}

func (r *HTTPResponse) Reset() {
	r.status = 0
	r.headers = nil
	if cap(r.body) > maxPooledBody {
		r.body = nil
	} else {
		r.body = r.body[:0]
	}
}

func (r *HTTPResponse) Body() []byte { return r.body }

// HTTPRequest models fasthttp.Request.
type HTTPRequest struct {
	host string
	path string
}

func (r *HTTPRequest) Reset() {
	r.host = ""
	r.path = ""
}

var (
	httpRequestPool  = sync.Pool{New: func() any { return new(HTTPRequest) }}
	httpResponsePool = sync.Pool{New: func() any { return new(HTTPResponse) }}
)

func AcquireRequest() *HTTPRequest { return httpRequestPool.Get().(*HTTPRequest) }

func ReleaseRequest(r *HTTPRequest) {
	r.Reset()
	httpRequestPool.Put(r)
}

func AcquireResponse() *HTTPResponse { return httpResponsePool.Get().(*HTTPResponse) }

func ReleaseResponse(r *HTTPResponse) {
	r.Reset()
	httpResponsePool.Put(r)
}

type HTTPClient struct {
	Exchange func(host, path string) (int, map[string]string, []byte, error)
}

func (c *HTTPClient) Do(req *HTTPRequest, resp *HTTPResponse) error {
	status, headers, data, err := c.Exchange(req.host, req.path)
	if err != nil {
		return err
	}
	resp.status = status
	resp.headers = headers
	resp.body = append(resp.body[:0], data...)
	return nil
}

// Response is the motan response interface.
type Response interface {
	GetRequestID() uint64
	GetValue() interface{}
	SetAttachment(k, v string)
}

type MotanResponse struct {
	RequestID  uint64
	Value      interface{}
	Attachment map[string]string
}

func (m *MotanResponse) GetRequestID() uint64  { return m.RequestID }
func (m *MotanResponse) GetValue() interface{} { return m.Value }
func (m *MotanResponse) SetAttachment(k, v string) {
	if m.Attachment == nil {
		m.Attachment = make(map[string]string)
	}
	m.Attachment[k] = v
}

// HttpMotanResponse is a pooled motan response that records the fasthttp
// response it was built from.
type HttpMotanResponse struct {
	MotanResponse
	HttpResponse *HTTPResponse
}

func (m *HttpMotanResponse) Reset() {
	m.RequestID = 0
	m.Value = nil
	m.Attachment = nil
	m.HttpResponse = nil
}

var motanResponsePool = sync.Pool{New: func() any { return new(HttpMotanResponse) }}

func AcquireHttpMotanResponse() *HttpMotanResponse {
	return motanResponsePool.Get().(*HttpMotanResponse)
}

func ReleaseHttpMotanResponse(m *HttpMotanResponse) {
	if m != nil {
		if m.HttpResponse != nil {
			ReleaseResponse(m.HttpResponse)
		}
		m.Reset()
		motanResponsePool.Put(m)
	}
}

// FasthttpResponseToMotanResponse converts an http response to a motan
// response; the body is assigned directly, not copied.
func FasthttpResponseToMotanResponse(motanResponse Response, httpResponse *HTTPResponse) {
	for k, v := range httpResponse.headers {
		motanResponse.SetAttachment(k, v)
	}
	if resp, ok := motanResponse.(*HttpMotanResponse); ok {
		resp.Value = httpResponse.Body()
		resp.HttpResponse = httpResponse
	}
}

type Request struct {
	RequestID   uint64
	ServiceName string
	Method      string
}

type agentMessageHandler struct {
	client *HTTPClient
}

func errorResponse(id uint64, msg string) Response {
	return &MotanResponse{RequestID: id, Value: errors.New(msg)}
}

func (a *agentMessageHandler) httpCall(request *Request) Response {
	var res Response
	httpRequest := AcquireRequest()
	httpResponse := AcquireResponse()
	defer ReleaseRequest(httpRequest)
	defer ReleaseResponse(httpResponse)
	httpRequest.host = request.ServiceName
	httpRequest.path = request.Method
	err := a.client.Do(httpRequest, httpResponse)
	if err != nil {
		return errorResponse(request.RequestID, "do http request failed : "+err.Error())
	}
	httpMotanResp := AcquireHttpMotanResponse()
	httpMotanResp.RequestID = request.RequestID
	res = httpMotanResp
	FasthttpResponseToMotanResponse(res, httpResponse)
	return res // want `useafterput`
}
