package interproc

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"sync"
	"unsafe"
)

// strings.Builder: String shares the builder's bytes and Reset drops them.

var sbPool = sync.Pool{New: func() any { return new(strings.Builder) }}

// Reset only after Get: the builder goes back holding the string.
func joinKept(parts []string) string {
	sb := sbPool.Get().(*strings.Builder)
	sb.Reset()
	for _, p := range parts {
		sb.WriteString(p)
	}
	s := sb.String()
	if sb.Cap() <= 1<<16 {
		sbPool.Put(sb) // want `sb \(strings.Builder\) goes back to the pool still holding the string it built`
	}
	return s
}

// Reset just before the Put: nothing kept, nothing to bound (no unbounded).
func joinDropped(parts []string) string {
	sb := sbPool.Get().(*strings.Builder)
	for _, p := range parts {
		sb.WriteString(p)
	}
	s := sb.String()
	sb.Reset()
	sbPool.Put(sb)
	return s
}

// A size predicate that takes the buffer itself guards the Put.

var predPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func reusable(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 }

func putPred(b *bytes.Buffer) {
	if !reusable(b) {
		return
	}
	predPool.Put(b)
}

func renderPred(w io.Writer, s string) error {
	b := predPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	putPred(b)
	return err
}

// A string made over pooled bytes with unsafe, through two helpers.

type chain struct{ hdr *bytes.Buffer }

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func (c *chain) header() string { return unsafeString(c.hdr.Bytes()) }

func (c *chain) Close() { // want Close:`pool:put\(0\).field`
	if c.hdr.Cap() > 64<<10 {
		return
	}
	c.hdr.Reset()
	predPool.Put(c.hdr)
}

func headerOf(raw string) string {
	b := predPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(raw)
	c := &chain{hdr: b}
	h := c.header()
	c.Close()
	return h // want `returned value shares memory with`
}

// A call that closes on some paths, then a Close whatever it returned.

var gzPool = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

type gzResponse struct{ gz *gzip.Writer }

func (r *gzResponse) Close() error { // want Close:`pool:put\(0\).field`
	err := r.gz.Close()
	r.gz.Reset(io.Discard)
	gzPool.Put(r.gz)
	return err
}

func userHandler(r *gzResponse, body []byte) error {
	if _, err := r.gz.Write(body); err != nil {
		return err
	}
	return r.Close()
}

func serveTwice(w io.Writer, body []byte) error {
	gz := gzPool.Get().(*gzip.Writer)
	gz.Reset(w)
	r := &gzResponse{gz: gz}
	err := userHandler(r, body)
	if cerr := r.Close(); err == nil { // want `may be put into the pool twice`
		err = cerr
	}
	return err
}

// The callee says whether it closed, and the caller closes only when it
// did not: silent.
func closeIfDone(r *gzResponse, done bool) bool {
	if done {
		r.Close()
		return true
	}
	return false
}

func serveOnce(w io.Writer, body []byte, done bool) error {
	gz := gzPool.Get().(*gzip.Writer)
	gz.Reset(w)
	r := &gzResponse{gz: gz}
	r.gz.Write(body)
	if !closeIfDone(r, done) {
		return r.Close()
	}
	return nil
}
