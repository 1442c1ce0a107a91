// Package bug reproduces the shape of valyala/fasthttp#1626
// (https://github.com/valyala/fasthttp/pull/1626): Requests are recycled through
// AcquireRequest/ReleaseRequest, and ReleaseRequest relies on Request.Reset,
// which calls RequestHeader.Reset. When the DisableSpecialHeader option (a new
// disableSpecialHeader flag) was added, RequestHeader.Reset was not taught to
// clear it: it resets disableNormalizing and noDefaultContentType and then the
// header contents, but a request whose caller had disabled special headers goes
// back to the pool with the flag still set, and the next AcquireRequest user
// silently gets no Host/Content-Type/User-Agent handling. The fix clears
// disableSpecialHeader in Reset.
//
// Check: noreset (in RequestHeader.Reset, which forgets disableSpecialHeader).
package bug

import "sync"

type argsKV struct {
	key   []byte
	value []byte
}

type RequestHeader struct {
	disableNormalizing   bool
	noHTTP11             bool
	connectionClose      bool
	noDefaultContentType bool
	disableSpecialHeader bool

	cookiesCollected bool

	contentLength      int
	contentLengthBytes []byte

	method      []byte
	requestURI  []byte
	host        []byte
	contentType []byte
	userAgent   []byte

	h       []argsKV
	cookies []argsKV

	rawHeaders []byte
}

// DisableSpecialHeader disables special header processing.
func (h *RequestHeader) DisableSpecialHeader() {
	h.disableSpecialHeader = true
}

// DisableNormalizing disables header names' normalization.
func (h *RequestHeader) DisableNormalizing() {
	h.disableNormalizing = true
}

func (h *RequestHeader) SetNoDefaultContentType(noDefaultContentType bool) {
	h.noDefaultContentType = noDefaultContentType
}

// SetHost sets Host header value; with special headers disabled it is kept
// as an ordinary header.
func (h *RequestHeader) SetHost(host string) {
	if h.disableSpecialHeader {
		h.h = append(h.h, argsKV{key: []byte("Host"), value: []byte(host)})
		return
	}
	h.host = append(h.host[:0], host...)
}

// Reset clears request header.
func (h *RequestHeader) Reset() {
	h.disableSpecialHeader = false
	h.disableNormalizing = false
	h.SetNoDefaultContentType(false)
	h.resetSkipNormalize()
}

func (h *RequestHeader) resetSkipNormalize() {
	h.noHTTP11 = false
	h.connectionClose = false

	h.contentLength = 0
	h.contentLengthBytes = h.contentLengthBytes[:0]

	h.method = h.method[:0]
	h.requestURI = h.requestURI[:0]
	h.host = h.host[:0]
	h.contentType = h.contentType[:0]
	h.userAgent = h.userAgent[:0]

	h.h = h.h[:0]
	h.cookies = h.cookies[:0]
	h.cookiesCollected = false

	h.rawHeaders = h.rawHeaders[:0]
}

type Request struct {
	Header RequestHeader

	body    []byte
	uri     []byte
	isTLS   bool
	timeout int64
}

func (req *Request) Reset() {
	req.Header.Reset()
	req.resetSkipHeader()
	req.timeout = 0
}

func (req *Request) resetSkipHeader() {
	req.body = req.body[:0]
	req.uri = req.uri[:0]
	req.isTLS = false
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
func ReleaseRequest(req *Request) {
	req.Reset()
	requestPool.Put(req)
}
