// Package bug reproduces the shape of heroiclabs/nakama commit f0e5feb
// (https://github.com/heroiclabs/nakama/commit/f0e5feb0a90f71f938b570d610b4d00c5528d2e8,
// "http: release reference to the ResponseWriter sooner"): the HTTP compression
// middleware borrows a gzip or flate writer from a per-handler pool, points it
// at the request's http.ResponseWriter with Reset(w), and returns it through a
// deferred Put (the Close is a separate deferred call on the interface). The
// writer goes back to the pool still wired to the finished request's
// ResponseWriter, so the idle pooled object pins that writer (and everything it
// references) until the next Get. The fix closes the writer, re-targets it at
// io.Discard and only then puts it back.
// Check: noreset (the deferred Puts of the gzip and flate writers that still hold w).
package bug

import (
	"compress/flate"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"
)

func compressHandler(h http.Handler) http.Handler {
	const (
		gzipEncoding  = "gzip"
		flateEncoding = "deflate"
	)

	gzipPool := &sync.Pool{
		New: func() any {
			w, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
			return w
		},
	}
	flatePool := &sync.Pool{
		New: func() any {
			w, _ := flate.NewWriter(io.Discard, flate.DefaultCompression)
			return w
		},
	}

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")

		var encoding string
		for _, enc := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
			enc = strings.TrimSpace(enc)
			if enc == gzipEncoding || enc == flateEncoding {
				encoding = enc
				break
			}
		}
		if encoding == "" || r.Header.Get("Upgrade") != "" {
			h.ServeHTTP(w, r)
			return
		}

		var encWriter compressEncoder
		if encoding == gzipEncoding {
			gz := gzipPool.Get().(*gzip.Writer)
			gz.Reset(w)
			defer gzipPool.Put(gz) // want `noreset`
			encWriter = gz
		} else {
			fl := flatePool.Get().(*flate.Writer)
			fl.Reset(w)
			defer flatePool.Put(fl) // want `noreset`
			encWriter = fl
		}
		defer encWriter.Close()

		w.Header().Set("Content-Encoding", encoding)
		r.Header.Del("Accept-Encoding")

		h.ServeHTTP(&compressResponseWriter{w: w, enc: encWriter}, r)
	})
}

type compressEncoder interface {
	io.WriteCloser
	Flush() error
}

type compressResponseWriter struct {
	w   http.ResponseWriter
	enc compressEncoder
}

func (c *compressResponseWriter) Header() http.Header { return c.w.Header() }

func (c *compressResponseWriter) WriteHeader(code int) {
	c.w.Header().Del("Content-Length")
	c.w.WriteHeader(code)
}

func (c *compressResponseWriter) Write(b []byte) (int, error) {
	hdr := c.w.Header()
	if hdr.Get("Content-Type") == "" {
		hdr.Set("Content-Type", http.DetectContentType(b))
	}
	hdr.Del("Content-Length")
	return c.enc.Write(b)
}

func (c *compressResponseWriter) Flush() {
	_ = c.enc.Flush()
	if f, ok := c.w.(http.Flusher); ok {
		f.Flush()
	}
}

// Handler wraps h with response compression.
func Handler(h http.Handler) http.Handler { return compressHandler(h) }
