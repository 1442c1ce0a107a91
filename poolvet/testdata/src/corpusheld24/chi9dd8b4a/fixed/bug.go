// Package bug is the fixed twin of go-chi/chi commit 9dd8b4a
// (https://github.com/go-chi/chi/commit/9dd8b4a7b5930c86ac2ecfdb55467112cc223518):
// Context.Reset also truncates methodsAllowed, so a recycled routing context
// no longer reports the Allow methods of earlier requests.
//
// Check: noreset (no report expected).
package bug

import (
	"context"
	"net/http"
	"sync"
)

type methodTyp uint

const (
	mGET methodTyp = 1 << iota
	mPOST
	mPUT
	mDELETE
)

var methodMap = map[string]methodTyp{
	http.MethodGet:    mGET,
	http.MethodPost:   mPOST,
	http.MethodPut:    mPUT,
	http.MethodDelete: mDELETE,
}

var reverseMethodMap = map[methodTyp]string{
	mGET:    http.MethodGet,
	mPOST:   http.MethodPost,
	mPUT:    http.MethodPut,
	mDELETE: http.MethodDelete,
}

type ctxKey struct{}

// RouteCtxKey is where the routing context lives in a request context.
var RouteCtxKey = ctxKey{}

// RouteParams is a list of captured URL parameters.
type RouteParams struct {
	Keys, Values []string
}

// Context is the per-request routing state, recycled through Mux.pool.
type Context struct {
	Routes    *Mux
	parentCtx context.Context

	RoutePath   string
	RouteMethod string

	URLParams     RouteParams
	routeParams   RouteParams
	routePattern  string
	RoutePatterns []string

	methodNotAllowed bool
	methodsAllowed   []methodTyp
}

// Reset brings a routing context back to its initial state.
func (x *Context) Reset() {
	x.Routes = nil
	x.RoutePath = ""
	x.RouteMethod = ""
	x.RoutePatterns = x.RoutePatterns[:0]
	x.URLParams.Keys = x.URLParams.Keys[:0]
	x.URLParams.Values = x.URLParams.Values[:0]

	x.routePattern = ""
	x.routeParams.Keys = x.routeParams.Keys[:0]
	x.routeParams.Values = x.routeParams.Values[:0]
	x.methodNotAllowed = false
	x.methodsAllowed = x.methodsAllowed[:0]
	x.parentCtx = nil
}

// Mux routes by exact path, then by method.
type Mux struct {
	routes  map[string]map[methodTyp]http.Handler
	handler http.Handler
	pool    *sync.Pool
}

// NewMux builds an empty router.
func NewMux() *Mux {
	mx := &Mux{routes: map[string]map[methodTyp]http.Handler{}}
	mx.pool = &sync.Pool{New: func() interface{} { return &Context{} }}
	mx.handler = http.HandlerFunc(mx.routeHTTP)
	return mx
}

// Handle registers h for method and path.
func (mx *Mux) Handle(method, path string, h http.Handler) {
	if mx.routes[path] == nil {
		mx.routes[path] = map[methodTyp]http.Handler{}
	}
	mx.routes[path][methodMap[method]] = h
}

func (mx *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rctx, _ := r.Context().Value(RouteCtxKey).(*Context); rctx != nil {
		mx.handler.ServeHTTP(w, r)
		return
	}

	rctx := mx.pool.Get().(*Context)
	rctx.Reset()
	rctx.Routes = mx
	rctx.parentCtx = r.Context()

	r = r.WithContext(context.WithValue(r.Context(), RouteCtxKey, rctx))

	mx.handler.ServeHTTP(w, r)
	mx.pool.Put(rctx)
}

// findRoute looks the path up; when only the method is wrong it records
// which methods the path does accept.
func (mx *Mux) findRoute(rctx *Context, method methodTyp, path string) http.Handler {
	endpoints, ok := mx.routes[path]
	if !ok {
		return nil
	}
	if h := endpoints[method]; h != nil {
		rctx.routePattern = path
		rctx.RoutePatterns = append(rctx.RoutePatterns, path)
		return h
	}
	for m := range endpoints {
		rctx.methodsAllowed = append(rctx.methodsAllowed, m)
	}
	rctx.methodNotAllowed = true
	return nil
}

func (mx *Mux) routeHTTP(w http.ResponseWriter, r *http.Request) {
	rctx := r.Context().Value(RouteCtxKey).(*Context)

	routePath := rctx.RoutePath
	if routePath == "" {
		routePath = r.URL.Path
		if routePath == "" {
			routePath = "/"
		}
	}
	if rctx.RouteMethod == "" {
		rctx.RouteMethod = r.Method
	}
	method, ok := methodMap[rctx.RouteMethod]
	if !ok {
		methodNotAllowedHandler().ServeHTTP(w, r)
		return
	}

	if h := mx.findRoute(rctx, method, routePath); h != nil {
		h.ServeHTTP(w, r)
		return
	}
	if rctx.methodNotAllowed {
		methodNotAllowedHandler(rctx.methodsAllowed...).ServeHTTP(w, r)
	} else {
		http.NotFound(w, r)
	}
}

func methodNotAllowedHandler(methodsAllowed ...methodTyp) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for _, m := range methodsAllowed {
			w.Header().Add("Allow", reverseMethodMap[m])
		}
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}
