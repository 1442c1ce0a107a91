package noreset

import (
	"net/http"
	"sync"
)

// A request context whose reset clears its per-request fields but one that
// a setter method sets and a later call reads (gin-gonic/gin#3123).
type reqCtx struct {
	w        http.ResponseWriter
	index    int8
	keys     map[string]any
	sameSite http.SameSite
}

func (c *reqCtx) reset() {
	c.index = -1
	c.keys = nil
}

func (c *reqCtx) SetSameSite(s http.SameSite) { c.sameSite = s }

func (c *reqCtx) SetCookie(name, value string) {
	http.SetCookie(c.w, &http.Cookie{Name: name, Value: value, SameSite: c.sameSite})
}

var reqCtxPool = sync.Pool{New: func() any { return &reqCtx{index: -1} }}

func serveReq(w http.ResponseWriter, h func(*reqCtx)) {
	c := reqCtxPool.Get().(*reqCtx)
	c.w = w
	c.reset()
	h(c)
	c.w = nil
	reqCtxPool.Put(c) // want `c goes back to the pool with field sameSite, which SetSameSite sets, never cleared: reset \(line 33\)`
}

// The fix: reset clears it too.
type fullCtx struct {
	w        http.ResponseWriter
	index    int8
	keys     map[string]any
	sameSite http.SameSite
}

func (c *fullCtx) reset() {
	c.index = -1
	c.keys = nil
	c.sameSite = 0
}

func (c *fullCtx) SetSameSite(s http.SameSite) { c.sameSite = s }

func (c *fullCtx) SetCookie(name, value string) {
	http.SetCookie(c.w, &http.Cookie{Name: name, Value: value, SameSite: c.sameSite})
}

var fullCtxPool = sync.Pool{New: func() any { return &fullCtx{index: -1} }}

func serveFull(w http.ResponseWriter, h func(*fullCtx)) {
	c := fullCtxPool.Get().(*fullCtx)
	c.w = w
	c.reset()
	h(c)
	c.w = nil
	fullCtxPool.Put(c)
}

// A Reset that clears the field three calls down (fasthttp's Request.Reset
// -> resetSkipHeader -> ResetBody -> RemoveMultipartFormFiles): silent.
type deepReq struct {
	body     []byte
	parsed   bool
	timeout  int
	boundary string
}

func (r *deepReq) Reset()           { r.parsed, r.timeout = false, 0; r.resetSkipHeader() }
func (r *deepReq) resetSkipHeader() { r.body = r.body[:0]; r.resetBody() }
func (r *deepReq) resetBody()       { r.removeFiles() }
func (r *deepReq) removeFiles()     { r.boundary = "" }

func (r *deepReq) ContinueReadBody(b string) { r.boundary = b }

func (r *deepReq) Boundary() string { return r.boundary }

var deepReqPool = sync.Pool{New: func() any { return new(deepReq) }}

func releaseDeepReq(r *deepReq) {
	r.Reset()
	deepReqPool.Put(r)
}

// A setter that keeps the slice it was passed, which Reset leaves: the
// next request's router finds the previous handler's slice
// (labstack/echo#1429).
type routeCtx struct {
	path    string
	pnames  []string
	pvalues []string
}

func (c *routeCtx) SetParamValues(values ...string) { c.pvalues = values }

func (c *routeCtx) Param(i int) string { return c.pvalues[i] }

func (c *routeCtx) Reset() {
	c.path = ""
	c.pnames = nil
}

var routeCtxPool = sync.Pool{New: func() any { return &routeCtx{pvalues: make([]string, 4)} }}

func serveRoute(h func(*routeCtx)) {
	c := routeCtxPool.Get().(*routeCtx)
	c.Reset()
	h(c)
	routeCtxPool.Put(c) // want `c goes back to the pool with field pvalues, which SetParamValues sets, never cleared`
}

// The fix: the setter copies into the context's own slice.
type copyCtx struct {
	path    string
	pnames  []string
	pvalues []string
}

func (c *copyCtx) SetParamValues(values ...string) { copy(c.pvalues, values) }

func (c *copyCtx) Param(i int) string { return c.pvalues[i] }

func (c *copyCtx) Reset() {
	c.path = ""
	c.pnames = nil
}

var copyCtxPool = sync.Pool{New: func() any { return &copyCtx{pvalues: make([]string, 4)} }}

func serveCopy(h func(*copyCtx)) {
	c := copyCtxPool.Get().(*copyCtx)
	c.Reset()
	h(c)
	copyCtxPool.Put(c)
}

// A field that Reset re-initialises through a reset method of what it
// holds (labstack/echo's c.response.reset(w)) is kept on purpose: silent.
type respHolder struct{ w http.ResponseWriter }

func (r *respHolder) reset(w http.ResponseWriter) { r.w = w }

type echoCtx struct {
	path     string
	pnames   []string
	response *respHolder
}

func (c *echoCtx) SetResponse(r *respHolder) { c.response = r }

func (c *echoCtx) Response() *respHolder { return c.response }

func (c *echoCtx) Reset(w http.ResponseWriter) {
	c.path = ""
	c.pnames = nil
	c.response.reset(w)
}

var echoCtxPool = sync.Pool{New: func() any { return &echoCtx{response: new(respHolder)} }}

func serveEcho(w http.ResponseWriter, h func(*echoCtx)) {
	c := echoCtxPool.Get().(*echoCtx)
	c.Reset(w)
	h(c)
	echoCtxPool.Put(c)
}

// A Reset that hands its receiver on and resets sub-objects, but leaves a
// flag a setter sets (cloudwego/hertz#164).
type tlsReq struct {
	uri       url
	parsedURI bool
	isTLS     bool
}

type url struct{ scheme, host string }

func (u *url) Reset() { u.scheme, u.host = "", "" }

func (r *tlsReq) resetSkipHeader() { r.uri.Reset(); r.parsedURI = false }
func (r *tlsReq) Reset()           { r.resetSkipHeader() }
func (r *tlsReq) SetIsTLS(v bool)  { r.isTLS = v }
func (r *tlsReq) Scheme() string {
	if r.isTLS {
		return "https"
	}
	return r.uri.scheme
}

var tlsReqPool = sync.Pool{New: func() any { return new(tlsReq) }}

func releaseTLSReq(r *tlsReq) {
	r.Reset()
	tlsReqPool.Put(r) // want `r goes back to the pool with field isTLS, which SetIsTLS sets, never cleared`
}
