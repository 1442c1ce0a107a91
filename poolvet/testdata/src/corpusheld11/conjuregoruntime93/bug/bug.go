// Package bug reproduces the shape of palantir/conjure-go-runtime#93
// (https://github.com/palantir/conjure-go-runtime/pull/93). The client's body
// middleware encoded the request input into a buffer taken from the client's
// buffer pool, installed that buffer as req.Body (and GetBody over its bytes),
// and put the buffer back with a defer in setRequestBody, i.e. before the
// request was sent: "the buf pointer is copied into req.Body and then
// immediately gets returned to the pool", so servers read another request's
// bytes.
//
// Check: useafterput (hand-off through a helper: the helper stores the pooled
// buffer into the request it was given and puts the buffer on return; the
// report belongs at the caller's RoundTrip, the first use of the request after
// that Put. Unsure: an analyzer may instead report inside setRequestBody, at
// the store into req or at its return).
package bug

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

func (b *bodyMiddleware) RoundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	if err := b.setRequestBody(req); err != nil {
		return nil, err
	}
	return next.RoundTrip(req) // want `useafterput`
}

func (b *bodyMiddleware) setRequestBody(req *http.Request) error {
	if b.requestInput == nil {
		return nil
	}
	buf := b.bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer b.putBuffer(buf)

	if err := json.NewEncoder(buf).Encode(b.requestInput); err != nil {
		return err
	}
	if buf.Len() != 0 {
		req.Body = io.NopCloser(buf)
		req.ContentLength = int64(buf.Len())
		req.GetBody = func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(buf.Bytes())), nil
		}
	}
	return nil
}
