// Source: https://github.com/valyala/fasthttp/pull/1185, commit
// c727b9981b525bcf6fa77d93418c5a0849d6c55a ("Release UseHostHeader in
// ReleaseRequest()").
//
// Bug: Request objects are recycled through requestPool (a sync.Pool) by
// AcquireRequest/ReleaseRequest, and ReleaseRequest calls req.Reset() before
// the Put. Reset cleared the header, body, URI, post args, TLS flag and
// timeout, but forgot the public UseHostHeader field. A request that set
// UseHostHeader = true went back to the pool with the flag still set, and the
// next AcquireRequest caller silently got a request that kept a stale Host
// header instead of the host from its own URI (Write skips SetHostBytes when
// UseHostHeader is true).
//
// Fix: Reset also clears UseHostHeader (req.UseHostHeader = false), with a
// test that acquires a request after releasing one with the flag set.
//
// Check: noreset (Request.Reset, the reset function ReleaseRequest runs before
// requestPool.Put, forgets the UseHostHeader field)
package fixed

import (
	"bufio"
	"errors"
	"sync"
	"time"
)

type RequestHeader struct {
	host       []byte
	requestURI []byte
}

func (h *RequestHeader) Host() []byte { return h.host }

func (h *RequestHeader) SetHostBytes(host []byte) {
	h.host = append(h.host[:0], host...)
}

func (h *RequestHeader) SetRequestURIBytes(uri []byte) {
	h.requestURI = append(h.requestURI[:0], uri...)
}

func (h *RequestHeader) Reset() {
	h.host = h.host[:0]
	h.requestURI = h.requestURI[:0]
}

type URI struct {
	host       []byte
	requestURI []byte
}

func (u *URI) Host() []byte       { return u.host }
func (u *URI) RequestURI() []byte { return u.requestURI }

func (u *URI) Reset() {
	u.host = u.host[:0]
	u.requestURI = u.requestURI[:0]
}

// Request represents HTTP request.
type Request struct {
	Header RequestHeader

	uri     URI
	body    []byte
	bodyRaw []byte

	parsedURI      bool
	parsedPostArgs bool
	isTLS          bool

	// Request timeout. Usually set by DoDeadline or DoTimeout
	timeout time.Duration

	// Use Host header (request.Header.SetHost) instead of the host from SetRequestURI, SetHost, or URI().SetHost
	UseHostHeader bool
}

var errRequestHostRequired = errors.New("missing required Host header in request")

func (req *Request) URI() *URI {
	req.parsedURI = true
	return &req.uri
}

func (req *Request) ResetBody() {
	req.body = req.body[:0]
	req.bodyRaw = nil
}

// Reset clears request contents.
func (req *Request) Reset() {
	req.Header.Reset()
	req.resetSkipHeader()
	req.timeout = 0
	req.UseHostHeader = false
}

func (req *Request) resetSkipHeader() {
	req.ResetBody()
	req.uri.Reset()
	req.parsedURI = false
	req.parsedPostArgs = false
	req.isTLS = false
}

// Write writes request to w.
func (req *Request) Write(w *bufio.Writer) error {
	if len(req.Header.Host()) == 0 || req.parsedURI {
		uri := req.URI()
		host := uri.Host()
		if len(req.Header.Host()) == 0 {
			if len(host) == 0 {
				return errRequestHostRequired
			}
			req.Header.SetHostBytes(host)
		} else if !req.UseHostHeader {
			req.Header.SetHostBytes(host)
		}
		req.Header.SetRequestURIBytes(uri.RequestURI())
	}
	_, err := w.Write(req.Header.requestURI)
	return err
}

var requestPool sync.Pool

// AcquireRequest returns an empty Request instance from request pool.
func AcquireRequest() *Request {
	v := requestPool.Get()
	if v == nil {
		return &Request{}
	}
	return v.(*Request)
}

// ReleaseRequest returns req acquired via AcquireRequest to request pool.
//
// It is forbidden accessing req and/or its' members after returning
// it to request pool.
func ReleaseRequest(req *Request) {
	req.Reset()
	requestPool.Put(req)
}
