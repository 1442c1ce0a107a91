package noreset

import (
	"strings"
	"sync"
)

// A pooled request whose Reset clears its state, flags included, but not
// KeepHost, an exported option its users set per request and Write reads:
// the next user of the pooled request inherits it (valyala/fasthttp
// c727b99, UseHostHeader).
type outRequest struct {
	host     string
	uri      string
	body     []byte
	parsed   bool
	KeepHost bool
}

func (r *outRequest) Reset() { // want `Reset clears 4 fields of outRequest but not KeepHost, an exported option its users set and Write reads`
	r.host = ""
	r.uri = ""
	r.body = r.body[:0]
	r.parsed = false
}

func (r *outRequest) Write(b *strings.Builder) {
	if !r.KeepHost {
		r.host = strings.TrimPrefix(r.uri, "http://")
		r.parsed = true
	}
	b.WriteString(r.host)
	b.Write(r.body)
}

var outRequests = sync.Pool{New: func() any { return new(outRequest) }}

func acquireOutRequest() *outRequest { return outRequests.Get().(*outRequest) }

func releaseOutRequest(r *outRequest) {
	r.Reset()
	outRequests.Put(r)
}

func sendWithHost(uri, host string) string {
	r := acquireOutRequest()
	r.uri, r.host, r.KeepHost = uri, host, true
	var b strings.Builder
	r.Write(&b)
	releaseOutRequest(r)
	return b.String()
}

// The fix: Reset clears the option too.
type outRequestFixed struct {
	host     string
	uri      string
	body     []byte
	parsed   bool
	KeepHost bool
}

func (r *outRequestFixed) Reset() {
	r.host = ""
	r.uri = ""
	r.body = r.body[:0]
	r.parsed = false
	r.KeepHost = false
}

func (r *outRequestFixed) Write(b *strings.Builder) {
	if !r.KeepHost {
		r.host = strings.TrimPrefix(r.uri, "http://")
	}
	b.WriteString(r.host)
	b.Write(r.body)
}

var outRequestsFixed = sync.Pool{New: func() any { return new(outRequestFixed) }}

func releaseOutRequestFixed(r *outRequestFixed) {
	r.Reset()
	outRequestsFixed.Put(r)
}

// An exported setting the package itself sets (here in New) is the pool's
// configuration, kept across users on purpose.
type lineWriter struct {
	buf     []byte
	n       int
	done    bool
	MaxLine int
}

func (w *lineWriter) Reset() {
	w.buf = w.buf[:0]
	w.n = 0
	w.done = false
}

func (w *lineWriter) WriteLine(s string) {
	if len(s) > w.MaxLine {
		s = s[:w.MaxLine]
	}
	w.buf = append(w.buf, s...)
	w.n++
}

var lineWriters = sync.Pool{New: func() any { return &lineWriter{MaxLine: 120} }}

func releaseLineWriter(w *lineWriter) {
	w.Reset()
	if cap(w.buf) > 4096 {
		return
	}
	lineWriters.Put(w)
}

// A Reset that clears no scalar state of its own says nothing about the
// type's options.
type attrSet struct {
	keys   []string
	vals   []string
	Sorted bool
}

func (a *attrSet) Reset() {
	a.keys = a.keys[:0]
	a.vals = a.vals[:0]
}

func (a *attrSet) Lookup(k string) string {
	if a.Sorted {
		return ""
	}
	for i, key := range a.keys {
		if key == k {
			return a.vals[i]
		}
	}
	return ""
}

var attrSets = sync.Pool{New: func() any { return new(attrSet) }}

func releaseAttrSet(a *attrSet) {
	a.Reset()
	attrSets.Put(a)
}
