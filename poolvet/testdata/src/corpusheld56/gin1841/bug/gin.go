// Source: https://github.com/gin-gonic/gin/pull/1841
// (commit https://github.com/gin-gonic/gin/commit/6e320c97e83a61df3daa0f28695a736bece3104b,
// "Fix context.Params race condition on Copy()").
//
// Bug: gin recycles *Context values through engine.pool (a sync.Pool).
// Context.Copy() is documented as the way to hand a context to a goroutine,
// but it copied the struct shallowly, so cp.Params still shared the backing
// array of the pooled Context's Params. After ServeHTTP put the Context back
// into the pool, the next request reused it: reset() truncates Params to
// [0:0] and the router appends the new request's path parameters into the
// same array, overwriting what the copy handed to the goroutine reads
// ("Using context.Param(key) on a context.Copy inside a goroutine may lead to
// incorrect value on a high load, where another request overwrite a Param").
// Fix: Copy() allocates a new Params slice and copies the parameters.
//
// Check: useafterput (the Context's Params memory is handed to a goroutine
// through Copy() and the Context is then put back into engine.pool).
package bug

import (
	"net/http"
	"strings"
	"sync"
)

const abortIndex int8 = 63

// Param is a single URL parameter, consisting of a key and a value.
type Param struct {
	Key   string
	Value string
}

// Params is a Param-slice, as returned by the router.
type Params []Param

// Get returns the value of the first Param which key matches the given name.
func (ps Params) Get(name string) (string, bool) {
	for _, entry := range ps {
		if entry.Key == name {
			return entry.Value, true
		}
	}
	return "", false
}

type HandlerFunc func(*Context)

type HandlersChain []HandlerFunc

type route struct {
	method   string
	segments []string
	handlers HandlersChain
}

type Engine struct {
	routes []route
	pool   sync.Pool
}

func New() *Engine {
	engine := &Engine{}
	engine.pool.New = func() interface{} {
		return engine.allocateContext()
	}
	return engine
}

func (engine *Engine) allocateContext() *Context {
	return &Context{engine: engine}
}

func (engine *Engine) GET(path string, handlers ...HandlerFunc) {
	engine.routes = append(engine.routes, route{
		method:   http.MethodGet,
		segments: strings.Split(strings.Trim(path, "/"), "/"),
		handlers: handlers,
	})
}

// ServeHTTP conforms to the http.Handler interface.
func (engine *Engine) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c := engine.pool.Get().(*Context)
	c.Writer = w
	c.Request = req
	c.reset()

	engine.handleHTTPRequest(c)

	engine.pool.Put(c) // want `useafterput`
}

func (engine *Engine) handleHTTPRequest(c *Context) {
	rPath := c.Request.URL.Path
	for _, r := range engine.routes {
		if r.method != c.Request.Method {
			continue
		}
		handlers, params := getValue(r, rPath, c.Params)
		if handlers != nil {
			c.handlers = handlers
			c.Params = params
			c.Next()
			return
		}
	}
	http.NotFound(c.Writer, c.Request)
}

// getValue matches path against the route and appends the path parameters
// to po, reusing its backing array.
func getValue(r route, path string, po Params) (HandlersChain, Params) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) != len(r.segments) {
		return nil, po
	}
	params := po
	for i, seg := range r.segments {
		if strings.HasPrefix(seg, ":") {
			params = append(params, Param{Key: seg[1:], Value: parts[i]})
		} else if seg != parts[i] {
			return nil, po
		}
	}
	return r.handlers, params
}
