// Package bug reproduces the shape of go-resty/resty#568
// (https://github.com/go-resty/resty/pull/568, issue go-resty/resty#567):
// the request body lives in a pooled *bytes.Buffer (r.bodyBuf). Before the
// request is sent, getBodyCopy builds a "copy" for GetBody with
// bytes.NewBuffer(r.bodyBuf.Bytes()), which only aliases the pooled memory.
// The body is wrapped in requestBodyReleaser, whose Close puts bodyBuf back
// into the pool. On a 307/308 redirect the HTTP client closes the first body
// (releasing the buffer) and then calls GetBody, which reads the memory of a
// buffer another request may already have taken and rewritten, so the
// redirected request carries a foreign body.
// Check: useafterput (the GetBody closure reads bodyCopy, a view of the pooled
// buffer, after requestBodyReleaser.Close put it back).
package bug

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

var bufPool = &sync.Pool{New: func() interface{} { return &bytes.Buffer{} }}

func acquireBuffer() *bytes.Buffer {
	return bufPool.Get().(*bytes.Buffer)
}

func releaseBuffer(buf *bytes.Buffer) {
	if buf != nil {
		buf.Reset()
		bufPool.Put(buf)
	}
}

type requestBodyReleaser struct {
	releaseOnce sync.Once
	reqBuf      *bytes.Buffer
	io.ReadCloser
}

func newRequestBodyReleaser(body io.ReadCloser, reqBuf *bytes.Buffer) io.ReadCloser {
	if reqBuf == nil {
		return body
	}
	return &requestBodyReleaser{reqBuf: reqBuf, ReadCloser: body}
}

func (rr *requestBodyReleaser) Close() error {
	err := rr.ReadCloser.Close()
	rr.releaseOnce.Do(func() {
		releaseBuffer(rr.reqBuf)
	})
	return err
}

// Request is the client-side request.
type Request struct {
	Method     string
	URL        string
	Body       []byte
	bodyBuf    *bytes.Buffer
	RawRequest *http.Request
}

func handleRequestBody(r *Request) {
	r.bodyBuf = acquireBuffer()
	_, _ = r.bodyBuf.Write(r.Body)
}

func getBodyCopy(r *Request) (*bytes.Buffer, error) {
	// If r.bodyBuf present, return the copy
	if r.bodyBuf != nil {
		return bytes.NewBuffer(r.bodyBuf.Bytes()), nil
	}
	return nil, nil
}

func createHTTPRequest(r *Request) (err error) {
	if r.bodyBuf == nil {
		r.RawRequest, err = http.NewRequest(r.Method, r.URL, nil)
	} else {
		r.RawRequest, err = http.NewRequest(r.Method, r.URL, r.bodyBuf)
	}
	if err != nil {
		return
	}

	bodyCopy, err := getBodyCopy(r)
	if err != nil {
		return err
	}

	r.RawRequest.GetBody = func() (io.ReadCloser, error) {
		if bodyCopy != nil {
			return io.NopCloser(bytes.NewReader(bodyCopy.Bytes())), nil // want `useafterput`
		}
		return nil, nil
	}
	return
}

// doWithRedirect stands for http.Client.Do following a 307: the transport
// closes the first body, then the client asks GetBody for a fresh one.
func doWithRedirect(raw *http.Request) ([]byte, error) {
	_, _ = io.Copy(io.Discard, raw.Body)
	_ = raw.Body.Close()
	if raw.GetBody == nil {
		return nil, nil
	}
	body, err := raw.GetBody()
	if err != nil || body == nil {
		return nil, err
	}
	defer body.Close()
	return io.ReadAll(body)
}

func execute(r *Request) ([]byte, error) {
	handleRequestBody(r)
	if err := createHTTPRequest(r); err != nil {
		releaseBuffer(r.bodyBuf)
		return nil, err
	}
	r.RawRequest.Body = newRequestBodyReleaser(r.RawRequest.Body, r.bodyBuf)
	return doWithRedirect(r.RawRequest)
}

// Post sends body to url.
func Post(url string, body []byte) ([]byte, error) {
	return execute(&Request{Method: http.MethodPost, URL: url, Body: body})
}
