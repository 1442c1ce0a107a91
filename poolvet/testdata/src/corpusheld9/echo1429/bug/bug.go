// Package bug reproduces the shape of labstack/echo#1429
// (https://github.com/labstack/echo/pull/1429, fixing
// https://github.com/labstack/echo/issues/1428): echo takes a *context from
// its sync.Pool per request and calls Reset, which did not touch pvalues.
// SetParamValues stored the caller's slice itself in c.pvalues, so after a
// middleware rewrote a parameter the pooled context kept that short slice; the
// router of the next request that got this context had no room for its
// parameter values and answered 404. The fix makes pvalues keep maxParam
// entries: Reset clears them in place and SetParamValues copies.
//
// Check: noreset (a reference a user passed, the values slice of
// SetParamValues, stays in the pooled context; reported at the Put). Both
// twins drop the request and the writer before the Put so that only pvalues
// differs.
package bug

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
	c.pvalues = values
}

// Reset prepares the context for a new request.
func (c *context) Reset(r *http.Request, w http.ResponseWriter) {
	c.request = r
	c.writer = w
	c.handler = notFound
	c.path = ""
	c.pnames = nil
	// pvalues is left alone: it must keep maxParam entries for the router.
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
	e.pool.Put(c) // want `noreset`
}
