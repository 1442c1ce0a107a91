// Package fixed is the fix of gin-gonic/gin#1565
// (https://github.com/gin-gonic/gin/pull/1565): HandleContext no longer
// puts the context back; ServeHTTP, which got it, is the only owner.
package fixed

import (
	"net/http"
	"sync"
)

type Context struct {
	w        http.ResponseWriter
	req      *http.Request
	redirect string
	keys     map[string]any
}

func (c *Context) reset(w http.ResponseWriter, req *http.Request) {
	c.w, c.req, c.redirect = w, req, ""
	clear(c.keys)
}

type Engine struct {
	pool sync.Pool
}

func New() *Engine {
	e := &Engine{}
	e.pool.New = func() any { return &Context{keys: map[string]any{}} }
	return e
}

func (e *Engine) handleHTTPRequest(c *Context) {
	if c.redirect != "" {
		c.req.URL.Path = c.redirect
		e.HandleContext(c)
		return
	}
	c.w.WriteHeader(http.StatusOK)
}

// HandleContext re-enters the engine with an adjusted context.
func (e *Engine) HandleContext(c *Context) {
	c.reset(c.w, c.req)
	e.handleHTTPRequest(c)
}

func (e *Engine) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c := e.pool.Get().(*Context)
	c.reset(w, req)
	if req.URL.Path == "/old" {
		c.redirect = "/new"
	}
	e.handleHTTPRequest(c)
	e.pool.Put(c)
}
