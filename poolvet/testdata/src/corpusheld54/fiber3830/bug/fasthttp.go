package bug

import "sync"

// Minimal stand-ins for the github.com/valyala/fasthttp types the fiber
// client uses.

type RequestHeader struct{ method []byte }

func (h *RequestHeader) Method() []byte { return h.method }

type Request struct {
	Header RequestHeader
	body   []byte
}

func (r *Request) CopyTo(dst *Request) {
	dst.Header.method = append(dst.Header.method[:0], r.Header.method...)
	dst.body = append(dst.body[:0], r.body...)
}

func (r *Request) Reset() {
	r.Header.method = r.Header.method[:0]
	r.body = r.body[:0]
}

type Response struct {
	statusCode int
	body       []byte
}

func (r *Response) StatusCode() int { return r.statusCode }

func (r *Response) CopyTo(dst *Response) {
	dst.statusCode = r.statusCode
	dst.body = append(dst.body[:0], r.body...)
}

func (r *Response) Reset() {
	r.statusCode = 0
	r.body = r.body[:0]
}

var (
	fhRequestPool  sync.Pool
	fhResponsePool sync.Pool
)

func AcquireRequest() *Request {
	v := fhRequestPool.Get()
	if v == nil {
		return &Request{}
	}
	return v.(*Request)
}

func ReleaseRequest(req *Request) {
	req.Reset()
	fhRequestPool.Put(req)
}

func AcquireFHResponse() *Response {
	v := fhResponsePool.Get()
	if v == nil {
		return &Response{}
	}
	return v.(*Response)
}

func ReleaseFHResponse(resp *Response) {
	resp.Reset()
	fhResponsePool.Put(resp)
}
