package noreset

import (
	"compress/gzip"
	"io"
	"net/http"
	"sync"
)

// A middleware that makes its own pool and returns a handler using it
// (heroiclabs/nakama#2487): the writer goes back pointed at the finished
// response.
func gzipMiddleware(h http.Handler) http.Handler {
	pool := &sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gz := pool.Get().(*gzip.Writer)
		gz.Reset(w)
		defer pool.Put(gz) // want `gz goes back to the pool still holding, in the io.Writer given to Reset, what a user was passed or returned`
		defer gz.Close()
		h.ServeHTTP(w, r)
	})
}

// The fix points it back at io.Discard first.
func gzipMiddlewareFixed(h http.Handler) http.Handler {
	pool := &sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gz := pool.Get().(*gzip.Writer)
		gz.Reset(w)
		defer func() {
			gz.Close()
			gz.Reset(io.Discard)
			pool.Put(gz)
		}()
		h.ServeHTTP(w, r)
	})
}
