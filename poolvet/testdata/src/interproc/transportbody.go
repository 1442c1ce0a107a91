package interproc

import (
	"io"
	"net/http"
	"sync"
)

type countingBody struct {
	src io.ReadCloser
	n   int
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.src.Read(p)
	b.n += n
	return n, err
}

func (b *countingBody) Close() error { return b.src.Close() }

var countingPool = sync.Pool{New: func() any { return new(countingBody) }}

// The pooled wrapper is the body of a request given to the transport,
// which may close it after RoundTrip returned (caddyserver/caddy#5924).
func proxyCounted(rt http.RoundTripper, r *http.Request) (int, error) {
	cb := countingPool.Get().(*countingBody)
	cb.src, cb.n = r.Body, 0
	defer func() {
		cb.src = nil
		countingPool.Put(cb)
	}()
	out := r.Clone(r.Context())
	out.Body = cb
	resp, err := rt.RoundTrip(out) // want `cb is handed to net/http's transport`
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return cb.n, nil
}

// The pooled wrapper only counts the response body read here: silent.
func readCounted(rt http.RoundTripper, r *http.Request) (int, error) {
	resp, err := rt.RoundTrip(r)
	if err != nil {
		return 0, err
	}
	cb := countingPool.Get().(*countingBody)
	cb.src, cb.n = resp.Body, 0
	defer func() {
		cb.src = nil
		countingPool.Put(cb)
	}()
	_, err = io.Copy(io.Discard, cb)
	resp.Body.Close()
	return cb.n, err
}
