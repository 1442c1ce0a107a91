// Package fixed is the fix of labstack/echo#1085
// (https://github.com/labstack/echo/pull/1085): limitedReader.Reset also
// zeroes the read counter, so every request starts counting from 0.
package fixed

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
	r.read = 0
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
				pool.Put(r)
			}()
			req.Body = r

			return next(c)
		}
	}
}
