// Package bug reproduces the shape of heroiclabs/nakama#2487
// (https://github.com/heroiclabs/nakama/pull/2487, fix in commit
// https://github.com/heroiclabs/nakama/commit/f0e5feb0a90f71f938b570d610b4d00c5528d2e8
// "http: release reference to the ResponseWriter sooner"): the HTTP compression
// middleware keeps gzip and flate writers in sync.Pools. Each request takes a
// writer, points it at the ResponseWriter with Reset(w) and defers the Put.
// The writer went back into the pool still pointing at that request's
// ResponseWriter (and, through it, the connection and its buffers), so an idle
// pooled compressor pinned the previous response until some later request
// happened to Reset it again.
//
// Check: noreset (the deferred Puts return a writer still wired to the old
// ResponseWriter).
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
	h := c.w.Header()
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", http.DetectContentType(b))
	}
	h.Del("Content-Length")
	return c.enc.Write(b)
}

func (c *compressResponseWriter) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(c.enc, r)
}

func (c *compressResponseWriter) Flush() {
	_ = c.enc.Flush()
	if f, ok := c.w.(http.Flusher); ok {
		f.Flush()
	}
}
