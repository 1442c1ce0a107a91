package noreset

import (
	"errors"
	nurl "net/url"
	"strings"
	"sync"
)

// A wrapper whose reset re-targets it at a new query string but keeps the parsed
// query that a getter computed from the old one and cached while the
// cache was nil: the next user of the pooled wrapper reads the previous
// request's parameters (labstack/echo#409).
type reqURL struct {
	rawQuery string
	query    nurl.Values
}

func (r *reqURL) Param(name string) string {
	if r.query == nil {
		r.query, _ = nurl.ParseQuery(r.rawQuery)
	}
	return r.query.Get(name)
}

func (r *reqURL) reset(rawQuery string) { // want `reset sets rawQuery of reqURL but not query, which Param computes from it when query is nil and keeps`
	r.rawQuery = rawQuery
}

var reqURLs = sync.Pool{New: func() any { return new(reqURL) }}

func queryParam(rawQuery, name string) string {
	r := reqURLs.Get().(*reqURL)
	r.reset(rawQuery)
	v := r.Param(name)
	reqURLs.Put(r)
	return v
}

// The same cache filled through a method of the receiver, with the
// nil test the other way round: the derived fields come from what the
// helper reads.
type pathInfo struct {
	path  string
	parts []string
}

func (p *pathInfo) split() []string {
	return strings.Split(p.path, "/")
}

func (p *pathInfo) Parts() []string { // want Parts:`pool:alias`
	if p.parts != nil {
		return p.parts
	}
	p.parts = p.split()
	return p.parts
}

func (p *pathInfo) Reset(path string) { // want `Reset sets path of pathInfo but not parts`
	p.path = path
}

var pathInfos = sync.Pool{New: func() any { return new(pathInfo) }}

func firstPart(path string) string {
	p := pathInfos.Get().(*pathInfo)
	p.Reset(path)
	parts := p.Parts()
	first := ""
	if len(parts) > 0 {
		first = parts[0]
	}
	pathInfos.Put(p)
	return first
}

// The fix: the reset drops the cache.
type reqURLFixed struct {
	rawQuery string
	query    nurl.Values
}

func (r *reqURLFixed) Param(name string) string {
	if r.query == nil {
		r.query, _ = nurl.ParseQuery(r.rawQuery)
	}
	return r.query.Get(name)
}

func (r *reqURLFixed) reset(rawQuery string) {
	r.rawQuery = rawQuery
	r.query = nil
}

var reqURLsFixed = sync.Pool{New: func() any { return new(reqURLFixed) }}

func queryParamFixed(rawQuery, name string) string {
	r := reqURLsFixed.Get().(*reqURLFixed)
	r.reset(rawQuery)
	v := r.Param(name)
	reqURLsFixed.Put(r)
	return v
}

// A lazily made scratch buffer is not derived from the object's state:
// keeping it across users is the point of pooling.
type lineScratch struct {
	src string
	buf []byte
}

func (s *lineScratch) bytes() []byte {
	if s.buf == nil {
		s.buf = make([]byte, 0, 256)
	}
	return append(s.buf[:0], s.src...)
}

func (s *lineScratch) reset(src string) {
	s.src = src
}

var lineScratches = sync.Pool{New: func() any { return new(lineScratch) }}

func lineLen(src string) int {
	s := lineScratches.Get().(*lineScratch)
	s.reset(src)
	n := len(s.bytes())
	lineScratches.Put(s)
	return n
}

// A cache derived from a setting the reset does not change stays valid.
type tzFormatter struct {
	zone   string
	layout string
	loc    *strings.Replacer
}

func (f *tzFormatter) replacer() *strings.Replacer {
	if f.loc == nil {
		f.loc = strings.NewReplacer("Z", f.zone)
	}
	return f.loc
}

func (f *tzFormatter) reset(layout string) {
	f.layout = layout
}

func newTZFormatter(zone string) *tzFormatter { return &tzFormatter{zone: zone} }

var tzFormatters = sync.Pool{New: func() any { return newTZFormatter("UTC") }}

func formatTZ(layout string) string {
	f := tzFormatters.Get().(*tzFormatter)
	f.reset(layout)
	s := f.replacer().Replace(f.layout)
	tzFormatters.Put(f)
	return s
}

// An error kept while nil is the last failure, a latch, not a cache of
// the state the reset sets.
type frameReader struct {
	src []byte
	off int
	err error
}

func (r *frameReader) next() byte {
	if r.err != nil {
		return 0
	}
	if r.err = r.check(); r.err != nil {
		return 0
	}
	r.off++
	return r.src[r.off-1]
}

func (r *frameReader) check() error {
	if r.off >= len(r.src) {
		return errShortFrame
	}
	return nil
}

var errShortFrame = errors.New("short frame")

func (r *frameReader) Reset(src []byte) {
	r.src = src
	r.off = 0
}

var frameReaders = sync.Pool{New: func() any { return new(frameReader) }}

func firstByte(src []byte) byte {
	r := frameReaders.Get().(*frameReader)
	r.Reset(src)
	b := r.next()
	r.Reset(nil)
	frameReaders.Put(r)
	return b
}

// A reset that drops the cache in a helper it calls.
type hostInfo struct {
	host  string
	parts []string
}

func (h *hostInfo) Labels() []string { // want Labels:`pool:alias`
	if h.parts == nil {
		h.parts = strings.Split(h.host, ".")
	}
	return h.parts
}

func (h *hostInfo) dropCache() { h.parts = nil }

func (h *hostInfo) reset(host string) {
	h.host = host
	h.dropCache()
}

var hostInfos = sync.Pool{New: func() any { return new(hostInfo) }}

func labelCount(host string) int {
	h := hostInfos.Get().(*hostInfo)
	h.reset(host)
	n := len(h.Labels())
	hostInfos.Put(h)
	return n
}
