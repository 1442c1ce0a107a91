// Package fixed is the twin of ../bug for labstack/echo#30
// (https://github.com/labstack/echo/issues/30): reset clears the path
// parameters and the store as well, so nothing of one request reaches the
// next.
package fixed

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
	c.pnames = nil
	c.pvalues = nil
	c.store = nil
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
	e.pool.Put(c)
}
