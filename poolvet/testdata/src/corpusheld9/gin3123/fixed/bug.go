// Package fixed is gin-gonic/gin#3123 after the fix: reset() also clears
// sameSite, so every request starts with the default SameSite mode.
package fixed

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
	c.sameSite = 0
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
	e.pool.Put(c)
}
