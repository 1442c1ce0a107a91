// Package bug reproduces the shape of cloudwego/hertz commit b80180a
// (https://github.com/cloudwego/hertz/commit/b80180a4a320657e9da6018934efbaa1ab5d11ae,
// "fix: missing reset isTLS field when recycle Request"): protocol.Request
// objects are recycled through requestPool by ReleaseRequest, which calls
// Reset -> Header.Reset + ResetSkipHeader + CloseBodyStream. ResetSkipHeader
// clears the body, URI, parse flags and post args but not isTLS, which a TLS
// server sets with SetIsTLS. A request later acquired for a plain-HTTP
// connection (or by a client) still claims to be TLS and parses its URI with
// an https scheme. The fix adds req.isTLS = false to ResetSkipHeader.
// Check: noreset (fixed twin: ResetSkipHeader clears isTLS; no report expected).
package bug

import (
	"io"
	"sync"
)

// RequestHeader is a trimmed request header.
type RequestHeader struct {
	method     []byte
	requestURI []byte
	host       []byte
}

// Reset clears h.
func (h *RequestHeader) Reset() {
	h.method = h.method[:0]
	h.requestURI = h.requestURI[:0]
	h.host = h.host[:0]
}

// URI is a parsed request URI.
type URI struct {
	scheme []byte
	host   []byte
	path   []byte
}

// Reset clears u.
func (u *URI) Reset() {
	u.scheme = u.scheme[:0]
	u.host = u.host[:0]
	u.path = u.path[:0]
}

func (u *URI) parse(host, uri []byte, isTLS bool) {
	u.Reset()
	if isTLS {
		u.scheme = append(u.scheme, "https"...)
	} else {
		u.scheme = append(u.scheme, "http"...)
	}
	u.host = append(u.host, host...)
	u.path = append(u.path, uri...)
}

// Args holds post arguments.
type Args struct {
	kv [][2][]byte
}

// Reset clears a.
func (a *Args) Reset() { a.kv = a.kv[:0] }

// RequestOptions carries per-request options.
type RequestOptions struct {
	tags map[string]string
}

// maxPooledURILen bounds what goes back to the pool (not part of the bug).
const maxPooledURILen = 8 << 10

var requestPool sync.Pool

// Request is an HTTP request.
type Request struct {
	Header RequestHeader

	uri      URI
	postArgs Args

	bodyStream io.Reader
	bodyRaw    []byte

	parsedURI      bool
	parsedPostArgs bool

	isTLS bool

	options *RequestOptions
}

// SetIsTLS is used by the TLS server to mark the request.
func (req *Request) SetIsTLS(isTLS bool) {
	req.isTLS = isTLS
}

// URI returns the parsed request URI.
func (req *Request) URI() *URI {
	if !req.parsedURI {
		req.parsedURI = true
		req.uri.parse(req.Header.host, req.Header.requestURI, req.isTLS)
	}
	return &req.uri
}

// ResetBody drops the body.
func (req *Request) ResetBody() {
	req.bodyRaw = nil
	req.CloseBodyStream() //nolint:errcheck
}

// CloseBodyStream closes the streaming body if any.
func (req *Request) CloseBodyStream() error {
	if c, ok := req.bodyStream.(io.Closer); ok {
		req.bodyStream = nil
		return c.Close()
	}
	req.bodyStream = nil
	return nil
}

// ResetSkipHeader clears everything except the header.
func (req *Request) ResetSkipHeader() {
	req.ResetBody()
	req.uri.Reset()
	req.parsedURI = false
	req.parsedPostArgs = false
	req.postArgs.Reset()
	req.isTLS = false
}

// Reset clears the request.
func (req *Request) Reset() {
	req.Header.Reset()
	req.ResetSkipHeader()
	req.CloseBodyStream() //nolint:errcheck
	req.options = nil
}

// AcquireRequest returns an empty request from the pool.
func AcquireRequest() *Request {
	v := requestPool.Get()
	if v == nil {
		return &Request{}
	}
	return v.(*Request)
}

// ReleaseRequest returns req to the pool.
func ReleaseRequest(req *Request) {
	if cap(req.uri.path) > maxPooledURILen || cap(req.Header.requestURI) > maxPooledURILen {
		return
	}
	req.Reset()
	requestPool.Put(req)
}
