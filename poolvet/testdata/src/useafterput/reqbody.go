package useafterput

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// A body logger, called from outside the package, that puts back the buffer a reader over which it leaves
// in the caller's request (hashicorp/aws-sdk-go-base#1502).
var rbPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func rbPut(buf *bytes.Buffer) {
	if buf.Cap() <= 64<<10 {
		rbPool.Put(buf)
	}
}

func logBody(req *http.Request) error {
	buf := rbPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer rbPut(buf)
	if _, err := io.CopyN(buf, req.Body, 1024); err != nil && err != io.EOF {
		return err
	}
	req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(buf.Bytes()), req.Body)) // want `buf is handed to the caller's request req, which is read or sent after this function returns here, but the deferred Put at line 23`
	return nil
}

// The fix: the request gets a copy; silent.
func logBody2(req *http.Request) error {
	buf := rbPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer rbPut(buf)
	if _, err := io.CopyN(buf, req.Body, 1024); err != nil && err != io.EOF {
		return err
	}
	req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(bytes.Clone(buf.Bytes())), req.Body))
	return nil
}

// A pooled body wrapper installed on the request a proxy forwards
// (VictoriaMetrics#8051).
type rbBody struct {
	r   io.ReadCloser
	buf []byte
}

func (b *rbBody) Read(p []byte) (int, error) { return b.r.Read(p) }
func (b *rbBody) Close() error               { return b.r.Close() }

var rbBodyPool = sync.Pool{New: func() any { return new(rbBody) }}

func rbForward(rt http.RoundTripper, r *http.Request) {
	b := rbBodyPool.Get().(*rbBody)
	b.r = r.Body
	defer func() {
		b.r, b.buf = nil, b.buf[:0]
		rbBodyPool.Put(b)
	}()
	r.Body = b // want `useafterput`
	if res, err := rt.RoundTrip(r.Clone(r.Context())); err == nil {
		res.Body.Close()
	}
}

// A body of its own for every request; silent.
func rbForward2(rt http.RoundTripper, r *http.Request) {
	r.Body = &rbBody{r: r.Body}
	if res, err := rt.RoundTrip(r.Clone(r.Context())); err == nil {
		res.Body.Close()
	}
}
