// Package bug reproduces the shape of gin-gonic/gin#3123
// (https://github.com/gin-gonic/gin/pull/3123): the engine takes a *Context
// from its sync.Pool for every request, calls c.reset(), runs the handlers
// and puts the context back. reset() cleared every per-request field except
// sameSite, so after one handler called SetSameSite(SameSiteNoneMode), a
// later request served by a recycled context that never set it still wrote
// "SameSite=None" cookies. The fix adds c.sameSite = 0 to reset().
//
// Check: noreset (stale basic field: reset() forgets sameSite, which
// SetCookie reads on paths where the handler did not set it; reported at the
// Put, the docs' place for noreset). Both twins drop the request and the
// writer before the Put so that only the sameSite field differs.
package bug

import (
	"net/http"
	"net/url"
	"sync"
)

// HandlerFunc is a request handler.
type HandlerFunc func(*Context)

// Context carries the state of one request.
type Context struct {
	Writer   http.ResponseWriter
	Request  *http.Request
	handlers []HandlerFunc
	index    int8
	Keys     map[string]any
	sameSite http.SameSite
}

func (c *Context) reset() {
	c.handlers = nil
	c.index = -1
	c.Keys = nil
}

// Next runs the remaining handlers of the chain.
func (c *Context) Next() {
	c.index++
	for c.index < int8(len(c.handlers)) {
		c.handlers[c.index](c)
		c.index++
	}
}

// SetSameSite sets the SameSite attribute of the cookies set afterwards.
func (c *Context) SetSameSite(samesite http.SameSite) {
	c.sameSite = samesite
}

// SetCookie adds a Set-Cookie header to the response.
func (c *Context) SetCookie(name, value string, maxAge int, path, domain string, secure, httpOnly bool) {
	if path == "" {
		path = "/"
	}
	http.SetCookie(c.Writer, &http.Cookie{
		Name:     name,
		Value:    url.QueryEscape(value),
		MaxAge:   maxAge,
		Path:     path,
		Domain:   domain,
		SameSite: c.sameSite,
		Secure:   secure,
		HttpOnly: httpOnly,
	})
}

// Engine serves requests with one chain of handlers.
type Engine struct {
	pool     sync.Pool
	handlers []HandlerFunc
}

// New returns an engine that runs handlers for every request.
func New(handlers ...HandlerFunc) *Engine {
	e := &Engine{handlers: handlers}
	e.pool.New = func() any { return &Context{index: -1} }
	return e
}

func (e *Engine) handleHTTPRequest(c *Context) {
	c.handlers = e.handlers
	c.Next()
}

// ServeHTTP implements http.Handler.
func (e *Engine) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c := e.pool.Get().(*Context)
	c.Writer = w
	c.Request = req
	c.reset()

	e.handleHTTPRequest(c)

	c.Writer = nil
	c.Request = nil
	e.pool.Put(c) // want `noreset`
}
