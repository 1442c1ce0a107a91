// Package bug reproduces the shape of caddyserver/caddy#5924
// (https://github.com/caddyserver/caddy/pull/5924), which reverted
// caddy#5848: the server wrapped each request body in a lengthReader taken
// from a sync.Pool (to count bytes read) and put the wrapper back when
// ServeHTTP returned. The reverse proxy had given that body to the HTTP/2
// transport, whose own goroutine closes the body later; by then the wrapper
// was back in the pool with its Source cleared, and Close panicked on nil.
//
// Check: useafterput (hand-off: the pooled wrapper is the body of a request
// given to the transport's RoundTrip, and a deferred closure puts it back;
// per docs/poolvet.md the report is at the hand-off).
package bug

import (
	"io"
	"net/http"
	"sync"
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

var lengthReaderPool = sync.Pool{New: func() any { return new(lengthReader) }}

type Server struct {
	transport http.RoundTripper
	upstream  string
	logBytes  func(n int)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lr := lengthReaderPool.Get().(*lengthReader)
	lr.Source = r.Body
	lr.Length = 0
	defer func() {
		lr.Source = nil
		lr.Length = 0
		lengthReaderPool.Put(lr)
	}()

	out := r.Clone(r.Context())
	out.Body = lr
	out.URL.Scheme = "https"
	out.URL.Host = s.upstream
	out.RequestURI = ""
	resp, err := s.transport.RoundTrip(out) // want `useafterput`
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
	s.logBytes(lr.Length)
}
