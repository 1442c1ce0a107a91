// Package bug reproduces the shape of labstack/echo#1 as fixed by commit 6d733d3
// (https://github.com/labstack/echo/commit/6d733d31, "Fixed #1 - Reset context"):
// Echo recycles its *Context through a sync.Pool and calls reset() on it for
// each request. reset replaced the request, response writer, query cache and
// echo pointer but left the store map that Context.Set writes to, so values a
// middleware or handler Set during one request were visible to c.Get in the
// next request that got the same Context (user ids, auth data, ...). The fix
// sets c.store = nil in reset and makes Set allocate the map lazily.
//
// Check: noreset (reset forgets the store field).
package bug

import (
	"net/http"
	"net/url"
	"sync"
)

type store map[string]interface{}

// Response wraps the http.ResponseWriter.
type Response struct {
	writer    http.ResponseWriter
	status    int
	committed bool
}

func (r *Response) reset(w http.ResponseWriter) {
	r.writer = w
	r.status = http.StatusOK
	r.committed = false
}

// Context is the per-request context.
type Context struct {
	request  *http.Request
	response *Response
	query    url.Values
	store    store
	echo     *Echo
}

// Get returns data saved in the context.
func (c *Context) Get(key string) interface{} {
	return c.store[key]
}

// Set saves data in the context.
func (c *Context) Set(key string, val interface{}) {
	if c.store == nil {
		c.store = make(store)
	}
	c.store[key] = val
}

func (c *Context) reset(r *http.Request, w http.ResponseWriter, e *Echo) { // want `noreset`
	c.request = r
	c.response.reset(w)
	c.query = nil
	c.echo = e
}

// HandlerFunc handles a request.
type HandlerFunc func(*Context) error

// MiddlewareFunc wraps a handler.
type MiddlewareFunc func(HandlerFunc) HandlerFunc

// Echo is the framework instance.
type Echo struct {
	middleware      []MiddlewareFunc
	routes          map[string]HandlerFunc
	notFoundHandler HandlerFunc
	pool            sync.Pool
}

// New creates an Echo.
func New() *Echo {
	e := &Echo{routes: map[string]HandlerFunc{}}
	e.notFoundHandler = func(c *Context) error {
		http.NotFound(c.response.writer, c.request)
		return nil
	}
	e.pool.New = func() interface{} {
		return &Context{response: &Response{}, echo: e}
	}
	return e
}

// Use adds middleware.
func (e *Echo) Use(m MiddlewareFunc) { e.middleware = append(e.middleware, m) }

// ServeHTTP implements http.Handler.
func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := e.pool.Get().(*Context)
	h := e.routes[r.Method+" "+r.URL.Path]
	c.reset(r, w, e)
	if h == nil {
		h = e.notFoundHandler
	}

	// Chain middleware with handler in the end
	for i := len(e.middleware) - 1; i >= 0; i-- {
		h = e.middleware[i](h)
	}

	if err := h(c); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}

	e.pool.Put(c)
}
