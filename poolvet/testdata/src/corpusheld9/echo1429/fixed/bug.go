// Package fixed is labstack/echo#1429 after the fix (in the form echo kept
// later): c.pvalues always keeps its maxParam entries; Reset clears them in
// place and SetParamValues copies the caller's values instead of storing the
// caller's slice.
package fixed

import (
	"net/http"
	"strings"
	"sync"
)

// HandlerFunc handles a request.
type HandlerFunc func(c *context) error

// MiddlewareFunc wraps a handler.
type MiddlewareFunc func(next HandlerFunc) HandlerFunc

type context struct {
	request *http.Request
	writer  http.ResponseWriter
	path    string
	pnames  []string
	pvalues []string
	handler HandlerFunc
}

func notFound(c *context) error {
	http.NotFound(c.writer, c.request)
	return nil
}

// Param returns the value of the named path parameter.
func (c *context) Param(name string) string {
	for i, n := range c.pnames {
		if n == name && i < len(c.pvalues) {
			return c.pvalues[i]
		}
	}
	return ""
}

// SetParamValues replaces the path parameter values.
func (c *context) SetParamValues(values ...string) {
	limit := len(values)
	if limit > len(c.pvalues) {
		limit = len(c.pvalues)
	}
	for i := 0; i < limit; i++ {
		c.pvalues[i] = values[i]
	}
}

// Reset prepares the context for a new request.
func (c *context) Reset(r *http.Request, w http.ResponseWriter) {
	c.request = r
	c.writer = w
	c.handler = notFound
	c.path = ""
	c.pnames = nil
	// pvalues keeps its maxParam entries for the router; only clear them.
	for i := range c.pvalues {
		c.pvalues[i] = ""
	}
}

type route struct {
	prefix  string
	pname   string
	handler HandlerFunc
}

// Echo is a router with one parameter per route.
type Echo struct {
	pool       sync.Pool
	maxParam   int
	routes     []route
	middleware []MiddlewareFunc
}

// New returns an Echo whose contexts hold maxParam parameter values.
func New(maxParam int) *Echo {
	e := &Echo{maxParam: maxParam}
	e.pool.New = func() any {
		return &context{pvalues: make([]string, e.maxParam)}
	}
	return e
}

// GET adds a route "prefix:pname".
func (e *Echo) GET(prefix, pname string, h HandlerFunc) {
	e.routes = append(e.routes, route{prefix: prefix, pname: pname, handler: h})
}

// Use adds middleware.
func (e *Echo) Use(m ...MiddlewareFunc) {
	e.middleware = append(e.middleware, m...)
}

// find writes the parameter value into c.pvalues, which must have room.
func (e *Echo) find(path string, c *context) {
	for _, rt := range e.routes {
		if !strings.HasPrefix(path, rt.prefix) || len(c.pvalues) == 0 {
			continue
		}
		c.pvalues[0] = path[len(rt.prefix):]
		c.pnames = []string{rt.pname}
		c.path = rt.prefix + ":" + rt.pname
		c.handler = rt.handler
		return
	}
}

// ServeHTTP implements http.Handler.
func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := e.pool.Get().(*context)
	c.Reset(r, w)

	e.find(r.URL.Path, c)
	h := c.handler
	for i := len(e.middleware) - 1; i >= 0; i-- {
		h = e.middleware[i](h)
	}
	if err := h(c); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}

	c.request = nil
	c.writer = nil
	e.pool.Put(c)
}
