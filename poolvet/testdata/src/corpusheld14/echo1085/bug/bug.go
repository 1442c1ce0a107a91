// Package bug reproduces the shape of labstack/echo#1085
// (https://github.com/labstack/echo/pull/1085, "BodyLimit middleware:
// (r *limitedReader) Reset does not reset read counter"): the BodyLimit
// middleware wraps each request body in a limitedReader taken from a
// sync.Pool and re-armed with Reset(body, ctx). Reset set the reader and
// context but not the read counter, so a pooled reader started the next
// request with the bytes counted for an earlier one and answered 413 to
// bodies well under the limit.
//
// Check: noreset (a Reset of the package that forgets the counter field
// Read accumulates and compares). The want is on the Put, in the deferred
// release. Here the release also calls Reset(nil, nil) so the idle reader
// does not keep the request body and context (echo put it back as it was);
// that leaves the forgotten counter as the only stale state. The pool is
// returned by pointer (echo returned a sync.Pool value).
package bug

import (
	"errors"
	"io"
	"net/http"
	"sync"
)

var ErrStatusRequestEntityTooLarge = errors.New("request entity too large")

type Context interface {
	Request() *http.Request
}

type HandlerFunc func(Context) error

type BodyLimitConfig struct {
	limit int64
}

type limitedReader struct {
	BodyLimitConfig
	reader  io.ReadCloser
	read    int64
	context Context
}

func (r *limitedReader) Read(b []byte) (n int, err error) {
	n, err = r.reader.Read(b)
	r.read += int64(n)
	if r.read > r.limit {
		return n, ErrStatusRequestEntityTooLarge
	}
	return
}

func (r *limitedReader) Close() error {
	return r.reader.Close()
}

func (r *limitedReader) Reset(reader io.ReadCloser, context Context) {
	r.reader = reader
	r.context = context
}

func limitedReaderPool(c BodyLimitConfig) *sync.Pool {
	return &sync.Pool{
		New: func() any {
			return &limitedReader{BodyLimitConfig: c}
		},
	}
}

// BodyLimit rejects request bodies bigger than limit bytes.
func BodyLimit(limit int64) func(HandlerFunc) HandlerFunc {
	config := BodyLimitConfig{limit: limit}
	pool := limitedReaderPool(config)

	return func(next HandlerFunc) HandlerFunc {
		return func(c Context) error {
			req := c.Request()

			// based on content length
			if req.ContentLength > config.limit {
				return ErrStatusRequestEntityTooLarge
			}

			// based on content read
			r := pool.Get().(*limitedReader)
			r.Reset(req.Body, c)
			defer func() {
				r.Reset(nil, nil)
				pool.Put(r) // want `noreset`
			}()
			req.Body = r

			return next(c)
		}
	}
}
