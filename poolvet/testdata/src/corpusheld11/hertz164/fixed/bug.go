// Package fixed is the fix of cloudwego/hertz#164
// (https://github.com/cloudwego/hertz/pull/164): the reset clears isTLS
// along with the other fields, so a recycled request starts as plain HTTP.
package fixed

import (
	"strings"
	"sync"
)

type URI struct {
	scheme string
	host   string
	path   string
}

func (u *URI) Reset() {
	u.scheme, u.host, u.path = "", "", ""
}

func (u *URI) parse(host, requestURI string, isTLS bool) {
	u.scheme = "http"
	if isTLS {
		u.scheme = "https"
	}
	if i := strings.Index(requestURI, "://"); i >= 0 {
		if !isTLS {
			u.scheme = requestURI[:i]
		}
		requestURI = requestURI[i+3:]
		if j := strings.IndexByte(requestURI, '/'); j >= 0 {
			host, requestURI = requestURI[:j], requestURI[j:]
		} else {
			host, requestURI = requestURI, "/"
		}
	}
	u.host = host
	u.path = requestURI
}

type RequestHeader struct {
	host       string
	requestURI string
}

func (h *RequestHeader) Reset() {
	h.host, h.requestURI = "", ""
}

type Request struct {
	Header    RequestHeader
	uri       URI
	parsedURI bool
	isTLS     bool
}

var requestPool sync.Pool

func (req *Request) resetSkipHeader() {
	req.uri.Reset()
	req.parsedURI = false
	req.isTLS = false
}

// Reset clears request contents.
func (req *Request) Reset() {
	req.Header.Reset()
	req.resetSkipHeader()
}

// SetIsTLS marks the request as received over TLS.
func (req *Request) SetIsTLS(isTLS bool) {
	req.isTLS = isTLS
}

func (req *Request) SetRequestURI(s string) {
	req.Header.requestURI = s
	req.parsedURI = false
}

func (req *Request) ParseURI() {
	if req.parsedURI {
		return
	}
	req.parsedURI = true
	req.uri.parse(req.Header.host, req.Header.requestURI, req.isTLS)
}

func (req *Request) Scheme() string {
	req.ParseURI()
	return req.uri.scheme
}

func AcquireRequest() *Request {
	v := requestPool.Get()
	if v == nil {
		return &Request{}
	}
	return v.(*Request)
}

func ReleaseRequest(req *Request) {
	req.Reset()
	requestPool.Put(req)
}
