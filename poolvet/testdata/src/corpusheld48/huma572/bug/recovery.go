// Source: https://github.com/danielgtaylor/huma/pull/572, fix commit
// https://github.com/danielgtaylor/huma/commit/8684ae1ff088a855e5799cfab0547a8e0702b0d1
// ("fix: reset recovery middleware buffer", huma v1 middleware). Huma is an
// HTTP/REST API framework, not one of the projects named for this domain.
//
// Bug: the huma v1 Recovery middleware buffers up to MaxLogBodyBytes of each
// request body into a *bytes.Buffer from a sync.Pool so that it can dump the
// request if the handler panics (GetBufferedBody also exposes it). The buffer
// was taken with bufPool.Get() and returned with a deferred bufPool.Put(buf)
// but never reset, so the next request's buffer already held the previous
// request's body: the panic dump and GetBufferedBody showed another client's
// request body (and the MaxLogBodyBytes limit was already used up by it).
// Fix: buf.Reset() right after bufPool.Get().
// Check: noreset (the deferred bufPool.Put(buf) in the Recovery handler puts
// back a buffer still holding this request's body, and it is not reset when
// taken out again)
package bug

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/ioutil"
	"log"
	"net/http"
	"net/http/httputil"
	"runtime/debug"
	"sync"
)

type contextKey string

var bufContextKey contextKey = "huma-middleware-body-buffer"

// GetBufferedBody returns the buffered body from a request when using the
// recovery middleware, up to MaxLogBodyBytes.
func GetBufferedBody(ctx context.Context) []byte {
	if val := ctx.Value(bufContextKey); val != nil {
		buf := val.(*bytes.Buffer)
		data, _ := ioutil.ReadAll(ioutil.NopCloser(buf))
		return data
	}
	return []byte{}
}

// MaxLogBodyBytes logs at most this many bytes of any request body during a
// panic when using the recovery middleware. Defaults to 10KiB.
var MaxLogBodyBytes int64 = 10 * 1024

// bufferedReadCloser will read and buffer up to max bytes into buf. Additional
// reads bypass the buffer.
type bufferedReadCloser struct {
	reader io.ReadCloser
	buf    *bytes.Buffer
	max    int64
}

func newBufferedReadCloser(reader io.ReadCloser, buffer *bytes.Buffer, max int64) *bufferedReadCloser {
	return &bufferedReadCloser{
		reader: reader,
		buf:    buffer,
		max:    max,
	}
}

// Read data into p. Returns number of bytes read and an error, if any.
func (r *bufferedReadCloser) Read(p []byte) (n int, err error) {
	// Read from the underlying reader like normal.
	n, err = r.reader.Read(p)

	// If buffer isn't full, add to it.
	length := int64(r.buf.Len())
	if length < r.max {
		if length+int64(n) < r.max {
			r.buf.Write(p[:n])
		} else {
			r.buf.Write(p[:int64(n)-(r.max-length)])
		}
	}

	return
}

// Close the underlying reader.
func (r *bufferedReadCloser) Close() error {
	return r.reader.Close()
}

var RemovedHeaders = []string{"Authorization"}

const redacted = "<redacted>"

// PanicFunc defines a function to run after a panic.
type PanicFunc func(ctx context.Context, err error, request string)

// Recovery prints stack traces on panic when used with the logging middleware.
func Recovery(onPanic PanicFunc) func(http.Handler) http.Handler {
	bufPool := sync.Pool{
		New: func() interface{} {
			return new(bytes.Buffer)
		},
	}

	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var buf *bytes.Buffer

			// Reset the body so other middleware/handlers can use it.
			if r.Body != nil {
				// Get a buffer that the body will be read into.
				buf = bufPool.Get().(*bytes.Buffer)
				defer bufPool.Put(buf) // want `noreset`

				r.Body = newBufferedReadCloser(r.Body, buf, MaxLogBodyBytes)

				r = r.WithContext(context.WithValue(r.Context(), bufContextKey, buf))
			}

			// Recovering comes *after* the above so the buffer is not returned to
			// the pool until after we print out its contents.
			defer func() {
				if err := recover(); err != nil {
					// The body might have been read or partially read, so replace it
					// with a clean reader to dump out up to maxBodyBytes with the error.
					if buf != nil && buf.Len() != 0 {
						r.Body = ioutil.NopCloser(buf)
					} else if r.Body != nil {
						defer r.Body.Close()
						r.Body = ioutil.NopCloser(io.LimitReader(r.Body, MaxLogBodyBytes))
					}

					for _, v := range RemovedHeaders {
						if r.Header.Get(v) != "" {
							r.Header.Set(v, redacted)
						}
					}

					request, _ := httputil.DumpRequest(r, true)

					if _, ok := err.(error); !ok {
						err = fmt.Errorf("%v", err)
					}

					if onPanic != nil {
						onPanic(r.Context(), err.(error), string(request))
					} else {
						// Fall back to the standard library logger.
						log.Printf("Caught panic: %v\n%s\n\nFrom request:\n%s", err, debug.Stack(), string(request))
					}

					http.Error(w, "Unrecoverable internal server error", http.StatusInternalServerError)
				}
			}()

			next.ServeHTTP(w, r)
		})
	}
}
