// Package fixed is caddyserver/caddy#5924: the pool is reverted, each
// request gets its own lengthReader, which the transport may close whenever
// it likes.
package fixed

import (
	"io"
	"net/http"
)

type lengthReader struct {
	Source io.ReadCloser
	Length int
}

func (r *lengthReader) Read(b []byte) (int, error) {
	n, err := r.Source.Read(b)
	r.Length += n
	return n, err
}

func (r *lengthReader) Close() error { return r.Source.Close() }

type Server struct {
	transport http.RoundTripper
	upstream  string
	logBytes  func(n int)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lr := &lengthReader{Source: r.Body}

	out := r.Clone(r.Context())
	out.Body = lr
	out.URL.Scheme = "https"
	out.URL.Host = s.upstream
	out.RequestURI = ""
	resp, err := s.transport.RoundTrip(out)
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
	s.logBytes(lr.Length)
}
