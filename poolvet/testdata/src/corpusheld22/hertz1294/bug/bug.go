// Package bug reproduces the shape of cloudwego/hertz#1294
// (https://github.com/cloudwego/hertz/pull/1294): Request.ResetBody decides
// whether to keep the pooled body buffer inside the Request by looking at the
// buffer's length, not its capacity. A body that once grew large and was later
// shortened (SetBody with a small payload reuses the same ByteBuffer) passes
// the "len <= maxKeepBodySize" test, so the huge backing array stays attached
// to the Request, and ReleaseRequest puts that Request back into requestPool,
// pinning the memory for every later user of the pool.
// Check: unbounded (the Put of the Request in ReleaseRequest, whose body
// buffer is only bounded by length).
package bug

import "sync"

// ByteBuffer mirrors hertz's bytebufferpool.ByteBuffer.
type ByteBuffer struct {
	B []byte
}

func (b *ByteBuffer) Len() int { return len(b.B) }

func (b *ByteBuffer) Cap() int { return cap(b.B) }

func (b *ByteBuffer) Reset() { b.B = b.B[:0] }

func (b *ByteBuffer) Set(p []byte) { b.B = append(b.B[:0], p...) }

func (b *ByteBuffer) Write(p []byte) (int, error) {
	b.B = append(b.B, p...)
	return len(p), nil
}

// bodyPool mirrors bytebufferpool.Pool: it refuses buffers above maxSize.
type bodyPool struct {
	pool    sync.Pool
	maxSize int
}

func (p *bodyPool) Get() *ByteBuffer {
	v := p.pool.Get()
	if v != nil {
		return v.(*ByteBuffer)
	}
	return &ByteBuffer{B: make([]byte, 0, 512)}
}

func (p *bodyPool) Put(b *ByteBuffer) {
	if p.maxSize == 0 || cap(b.B) <= p.maxSize {
		b.Reset()
		p.pool.Put(b)
	}
}

var (
	requestBodyPool = bodyPool{maxSize: 64 << 10}

	requestPool sync.Pool
)

type Request struct {
	uri             string
	body            *ByteBuffer
	bodyRaw         []byte
	maxKeepBodySize int

	parsedURI bool
}

func (req *Request) BodyBuffer() *ByteBuffer {
	if req.body == nil {
		req.body = requestBodyPool.Get()
	}
	req.bodyRaw = nil
	return req.body
}

// SetBody sets request body, reusing the body buffer already attached.
func (req *Request) SetBody(body []byte) {
	req.BodyBuffer().Set(body)
}

func (req *Request) AppendBody(p []byte) {
	req.BodyBuffer().Write(p) //nolint:errcheck
}

func (req *Request) SetMaxKeepBodySize(n int) {
	req.maxKeepBodySize = n
}

func (req *Request) Body() []byte {
	if req.bodyRaw != nil {
		return req.bodyRaw
	}
	if req.body == nil {
		return nil
	}
	return req.body.B
}

// ResetBody resets request body.
func (req *Request) ResetBody() {
	req.bodyRaw = nil
	if req.body != nil {
		if req.body.Len() <= req.maxKeepBodySize {
			req.body.Reset()
			return
		}
		requestBodyPool.Put(req.body)
		req.body = nil
	}
}

func (req *Request) resetSkipHeaderAndConn() {
	req.ResetBody()
	req.uri = ""
	req.parsedURI = false
}

// Reset clears request contents.
func (req *Request) Reset() {
	req.resetSkipHeaderAndConn()
}

// AcquireRequest returns an empty Request instance from request pool.
func AcquireRequest() *Request {
	v := requestPool.Get()
	if v == nil {
		return &Request{maxKeepBodySize: 4 << 10}
	}
	return v.(*Request)
}

// ReleaseRequest returns req acquired via AcquireRequest to request pool.
func ReleaseRequest(req *Request) {
	req.Reset()
	requestPool.Put(req) // want `unbounded`
}

// Forward builds an upstream request: a large upload first, then the body is
// replaced by a short one before the request is released.
func Forward(upload, small []byte) int {
	req := AcquireRequest()
	req.AppendBody(upload)
	req.SetBody(small)
	n := len(req.Body())
	ReleaseRequest(req)
	return n
}
