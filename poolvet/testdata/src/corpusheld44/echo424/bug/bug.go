// Package bug reproduces the shape of labstack/echo#424
// (https://github.com/labstack/echo/commit/b47abdb9ec9b6d38475ed385ebe052affbc14172,
// "Fixed #424, #427"): the gzip middleware takes a *gzip.Writer from a
// sync.Pool per request and, in its deferred cleanup, closes it, returns it to
// the pool and then closes it a second time. The second Close runs on a writer
// that another request may already have taken out of the pool and Reset onto
// its own response, so it flushes a gzip trailer into somebody else's stream.
// The fix dropped the Close after the Put.
//
// Check: useafterput (the w.Close() after pool.Put(w) in the deferred func).
package bug

import (
	"compress/gzip"
	"io"
	"io/ioutil"
	"net/http"
	"strings"
	"sync"
)

// Response wraps the writer a handler writes its body to.
type Response struct {
	header http.Header
	writer io.Writer
}

func (r *Response) Header() http.Header   { return r.header }
func (r *Response) Writer() io.Writer     { return r.writer }
func (r *Response) SetWriter(w io.Writer) { r.writer = w }

// Context is the per-request context handed to handlers.
type Context interface {
	Request() *http.Request
	Response() *Response
}

// Handler handles one request.
type Handler interface {
	Handle(Context) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(Context) error

// Handle calls f.
func (f HandlerFunc) Handle(c Context) error { return f(c) }

// MiddlewareFunc wraps a handler.
type MiddlewareFunc func(Handler) Handler

// GzipConfig defines the config for the gzip middleware.
type GzipConfig struct {
	Level int
}

type gzipResponseWriter struct {
	*Response
	io.Writer
}

func (g gzipResponseWriter) Write(b []byte) (int, error) {
	if g.Header().Get("Content-Type") == "" {
		g.Header().Set("Content-Type", http.DetectContentType(b))
	}
	return g.Writer.Write(b)
}

// GzipFromConfig returns a gzip middleware built from config.
func GzipFromConfig(config GzipConfig) MiddlewareFunc {
	pool := gzipPool(config)
	scheme := "gzip"

	return func(next Handler) Handler {
		return HandlerFunc(func(c Context) error {
			c.Response().Header().Add("Vary", "Accept-Encoding")
			if strings.Contains(c.Request().Header.Get("Accept-Encoding"), scheme) {
				w := pool.Get().(*gzip.Writer)
				w.Reset(c.Response().Writer())
				defer func() {
					w.Close()
					pool.Put(w)
					w.Close() // want `useafterput`
				}()
				g := gzipResponseWriter{Response: c.Response(), Writer: w}
				c.Response().Header().Set("Content-Encoding", scheme)
				c.Response().SetWriter(g)
			}
			return next.Handle(c)
		})
	}
}

func gzipPool(config GzipConfig) *sync.Pool {
	return &sync.Pool{
		New: func() interface{} {
			w, _ := gzip.NewWriterLevel(ioutil.Discard, config.Level)
			return w
		},
	}
}
