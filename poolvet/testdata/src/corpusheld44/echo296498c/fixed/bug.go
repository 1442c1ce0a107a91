// Package bug reproduces the shape of labstack/echo commit 296498c
// (https://github.com/labstack/echo/commit/296498c9423a21ff893eae674849b4d793909feb,
// "Fixed nested groups, reset Context#handler"): Echo keeps its per-request
// *context in a sync.Pool and clears it with reset() after Get. reset cleared
// request, response, path, query and store but not handler. Router.Find only sets
// ctx.handler when it reaches a node; on an early return (no route matched)
// the context keeps the handler of the request that used it before, so an
// unmatched path runs some earlier route's handler instead of "not found".
// The fix sets c.handler = notFoundHandler in reset.
//
// Check: noreset (reset forgets the handler field).
package bug

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// Handler handles a request.
type Handler interface {
	Handle(*context) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(*context) error

// Handle calls h.
func (h HandlerFunc) Handle(c *context) error { return h(c) }

var notFoundHandler = HandlerFunc(func(c *context) error {
	http.Error(c.response, "Not Found", http.StatusNotFound)
	return nil
})

type store map[string]interface{}

type context struct {
	request  *http.Request
	response http.ResponseWriter
	path     string
	query    url.Values
	store    store
	handler  Handler
	echo     *Echo
}

func (c *context) reset(req *http.Request, res http.ResponseWriter) {
	c.request = req
	c.response = res
	c.path = ""
	c.query = nil
	c.store = nil
	c.handler = notFoundHandler
}

// Router maps paths to handlers.
type Router struct {
	routes map[string]map[string]Handler
}

// Find looks up the handler for method and path and stores it in ctx.
func (r *Router) Find(method, path string, ctx *context) {
	search := strings.TrimSuffix(path, "/")
	if search == "" {
		search = "/"
	}
	byMethod, ok := r.routes[search]
	if !ok {
		return
	}
	ctx.path = search
	ctx.handler = byMethod[method]
	if ctx.handler == nil {
		ctx.handler = HandlerFunc(func(c *context) error {
			http.Error(c.response, "Method Not Allowed", http.StatusMethodNotAllowed)
			return nil
		})
	}
}

// Echo is the framework instance.
type Echo struct {
	router *Router
	pool   sync.Pool
}

// New creates an Echo.
func New() *Echo {
	e := &Echo{router: &Router{routes: map[string]map[string]Handler{}}}
	e.pool.New = func() interface{} {
		return &context{echo: e, handler: notFoundHandler}
	}
	return e
}

// GET registers a handler.
func (e *Echo) GET(path string, h HandlerFunc) {
	if e.router.routes[path] == nil {
		e.router.routes[path] = map[string]Handler{}
	}
	e.router.routes[path][http.MethodGet] = h
}

func (e *Echo) ServeHTTP(res http.ResponseWriter, req *http.Request) {
	c := e.pool.Get().(*context)
	c.reset(req, res)

	e.router.Find(req.Method, req.URL.Path, c)
	if err := c.handler.Handle(c); err != nil {
		http.Error(res, err.Error(), http.StatusInternalServerError)
	}

	e.pool.Put(c)
}
