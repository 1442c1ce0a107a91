// Package bug is the fixed twin of heroiclabs/nakama#2487
// (https://github.com/heroiclabs/nakama/pull/2487, fix in commit
// https://github.com/heroiclabs/nakama/commit/f0e5feb0a90f71f938b570d610b4d00c5528d2e8):
// the deferred release closes the compressor, points it back at io.Discard and
// only then puts it into the pool, so a pooled writer holds no reference to a
// finished response.
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
			defer func() {
				gz.Close()
				gz.Reset(io.Discard)
				gzipPool.Put(gz)
			}()
			encWriter = gz
		} else {
			fl := flatePool.Get().(*flate.Writer)
			fl.Reset(w)
			defer func() {
				fl.Close()
				fl.Reset(io.Discard)
				flatePool.Put(fl)
			}()
			encWriter = fl
		}

		w.Header().Set("Content-Encoding", encoding)
		r.Header.Del("Accept-Encoding")

		h.ServeHTTP(&compressResponseWriter{w: w, enc: encWriter}, r)
	})
}

type compressEncoder interface {
	io.Writer
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
