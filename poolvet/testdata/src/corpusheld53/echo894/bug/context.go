// Source: https://github.com/labstack/echo/pull/894
// (commit f0e3f950cf7be23a481bdd75f3fb2c5c597845fd "Tested and fixed bug
// with reused context (path parameters).", echo v3 context.go, March 2017)
//
// Bug: Echo.ServeHTTP takes a *context from e.pool, defers e.pool.Put(c)
// and calls c.Reset(r, w). Reset cleared the request, response, query,
// handler and store but forgot the path parameter names and the matched
// path (c.pnames, c.path), and ParamValues returned the whole pvalues
// scratch slice (always maxParam long). A context reused from the pool for a
// route without parameters therefore still reported the parameter names,
// values and path of an earlier request ("we saw old parameters from
// c.ParamValues() in later requests").
//
// Fix: Reset also sets c.pnames = nil and c.path = "" (pvalues must keep its
// maxParam length), and ParamValues returns c.pvalues[:len(c.pnames)].
//
// Check: noreset (at context.Reset, the reset function of the pooled context
// that forgets pnames and path)
package bug

import (
	"net/http"
	"net/url"
	"sync"
)

type (
	HandlerFunc func(Context) error

	Map map[string]interface{}

	// Context is the (trimmed) echo.Context interface.
	Context interface {
		Path() string
		SetPath(p string)
		ParamNames() []string
		SetParamNames(names ...string)
		ParamValues() []string
		SetParamValues(values ...string)
		Handler() HandlerFunc
		SetHandler(h HandlerFunc)
		Reset(r *http.Request, w http.ResponseWriter)
	}

	context struct {
		request  *http.Request
		response http.ResponseWriter
		path     string
		pnames   []string
		pvalues  []string
		query    url.Values
		handler  HandlerFunc
		store    Map
		echo     *Echo
	}
)

// NotFoundHandler is the default handler when no route matched.
var NotFoundHandler = func(c Context) error {
	return nil
}

func (c *context) Path() string {
	return c.path
}

func (c *context) SetPath(p string) {
	c.path = p
}

func (c *context) ParamNames() []string {
	return c.pnames
}

func (c *context) SetParamNames(names ...string) {
	c.pnames = names
}

func (c *context) ParamValues() []string {
	return c.pvalues
}

func (c *context) SetParamValues(values ...string) {
	c.pvalues = values
}

func (c *context) Handler() HandlerFunc {
	return c.handler
}

func (c *context) SetHandler(h HandlerFunc) {
	c.handler = h
}

func (c *context) Reset(r *http.Request, w http.ResponseWriter) { // want `noreset`
	c.request = r
	c.response = w
	c.query = nil
	c.handler = NotFoundHandler
	c.store = nil
}

// --- echo.go / router.go (trimmed) ---

type route struct {
	path    string
	pnames  []string
	handler HandlerFunc
}

type Echo struct {
	routes   map[string]*route
	maxParam *int
	pool     sync.Pool
}

func New() (e *Echo) {
	e = &Echo{routes: map[string]*route{}, maxParam: new(int)}
	e.pool.New = func() interface{} {
		return e.NewContext(nil, nil)
	}
	return
}

func (e *Echo) NewContext(r *http.Request, w http.ResponseWriter) Context {
	return &context{
		request:  r,
		response: w,
		store:    make(Map),
		echo:     e,
		pvalues:  make([]string, *e.maxParam),
		handler:  NotFoundHandler,
	}
}

// find is a trimmed router.Find: it only touches the path parameters when
// the matched route has some.
func (e *Echo) find(method, path string, c Context) {
	rt, ok := e.routes[method+path]
	if !ok {
		return
	}
	if len(rt.pnames) > 0 {
		c.SetPath(rt.path)
		c.SetParamNames(rt.pnames...)
		pv := c.ParamValues()
		for i := range rt.pnames {
			pv[i] = path
		}
	}
	c.SetHandler(rt.handler)
}

func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Acquire context
	c := e.pool.Get().(*context)
	defer e.pool.Put(c)
	c.Reset(r, w)

	e.find(r.Method, r.URL.Path, c)
	h := c.Handler()
	if err := h(c); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
