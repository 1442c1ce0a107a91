// Package bug reproduces the shape of labstack/echo#30
// (https://github.com/labstack/echo/issues/30): echo takes a Context from a
// sync.Pool for every request and calls reset on it, but reset only replaced
// the request and response. The path parameter values and the key/value
// store set while serving one request were still there for the next request
// that got the same Context. (The minimal package also calls reset before
// the Put, so the request and response are released and only the fields
// reset forgets are left behind.)
//
// Check: noreset (reset forgets fields a setter fills; reported at the Put
// after the reset, as docs/poolvet.md says for a Reset that forgets a field)
package bug

import (
	"net/http"
	"sync"
)

type Context struct {
	Request  *http.Request
	Response http.ResponseWriter
	pnames   []string
	pvalues  []string
	store    map[string]any
}

func (c *Context) SetParam(names, values []string) {
	c.pnames = names
	c.pvalues = values
}

func (c *Context) Param(name string) string {
	for i, n := range c.pnames {
		if n == name && i < len(c.pvalues) {
			return c.pvalues[i]
		}
	}
	return ""
}

func (c *Context) Set(key string, val any) {
	if c.store == nil {
		c.store = make(map[string]any)
	}
	c.store[key] = val
}

func (c *Context) Get(key string) any {
	return c.store[key]
}

func (c *Context) reset(w http.ResponseWriter, r *http.Request) {
	c.Response = w
	c.Request = r
}

type HandlerFunc func(*Context)

type Echo struct {
	pool   sync.Pool
	router func(path string) (HandlerFunc, []string, []string)
}

func New(router func(string) (HandlerFunc, []string, []string)) *Echo {
	e := &Echo{router: router}
	e.pool.New = func() any { return new(Context) }
	return e
}

func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := e.pool.Get().(*Context)
	c.reset(w, r)
	h, names, values := e.router(r.URL.Path)
	if names != nil {
		c.SetParam(names, values)
	}
	h(c)
	c.reset(nil, nil)
	e.pool.Put(c) // want `noreset`
}
