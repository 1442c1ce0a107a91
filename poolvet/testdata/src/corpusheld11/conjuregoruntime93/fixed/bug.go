// Package fixed is palantir/conjure-go-runtime#93's fix
// (https://github.com/palantir/conjure-go-runtime/pull/93): setRequestBody
// returns a cleanup func instead of deferring the Put, and RoundTrip calls it
// only once the request is done with the body. Here "done" is made strict:
// the response is read and closed before the cleanup, and the request body is
// a private copy, so nothing the transport may still hold points into the
// pooled buffer.
package fixed

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

const maxPooledBody = 1 << 20

type bodyMiddleware struct {
	requestInput any
	bufferPool   *sync.Pool
}

func newBodyMiddleware(input any) *bodyMiddleware {
	return &bodyMiddleware{
		requestInput: input,
		bufferPool:   &sync.Pool{New: func() any { return new(bytes.Buffer) }},
	}
}

func (b *bodyMiddleware) putBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBody {
		return
	}
	buf.Reset()
	b.bufferPool.Put(buf)
}

func (b *bodyMiddleware) RoundTrip(req *http.Request, next http.RoundTripper) ([]byte, error) {
	cleanup, err := b.setRequestBody(req)
	defer cleanup()
	if err != nil {
		return nil, err
	}
	resp, err := next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (b *bodyMiddleware) setRequestBody(req *http.Request) (func(), error) {
	if b.requestInput == nil {
		return func() {}, nil
	}
	buf := b.bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	cleanup := func() { b.putBuffer(buf) }

	if err := json.NewEncoder(buf).Encode(b.requestInput); err != nil {
		return cleanup, err
	}
	if buf.Len() != 0 {
		body := bytes.Clone(buf.Bytes())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(body)), nil
		}
	}
	return cleanup, nil
}
