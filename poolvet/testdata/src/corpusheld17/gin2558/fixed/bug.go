// Package fixed is the fixed twin of gin-gonic/gin#2558
// (https://github.com/gin-gonic/gin/issues/2558): ServeHTTP drops the
// request and the response writer it stored in the pooled Context before
// putting the Context back (the obvious fix; #2557 proposed moving reset
// there, but reset alone does not clear those two fields).
package fixed

import (
	"net/http"
	"sync"
)

type HandlerFunc func(*Context)

type HandlersChain []HandlerFunc

type ResponseWriter interface {
	http.ResponseWriter
	Status() int
}

type responseWriter struct {
	http.ResponseWriter
	size   int
	status int
}

func (w *responseWriter) reset(writer http.ResponseWriter) {
	w.ResponseWriter = writer
	w.size = -1
	w.status = http.StatusOK
}

func (w *responseWriter) WriteHeader(code int) {
	if code > 0 && w.status != code {
		w.status = code
	}
}

func (w *responseWriter) Write(data []byte) (int, error) {
	if w.size < 0 {
		w.ResponseWriter.WriteHeader(w.status)
		w.size = 0
	}
	n, err := w.ResponseWriter.Write(data)
	w.size += n
	return n, err
}

func (w *responseWriter) Status() int { return w.status }

type Context struct {
	writermem responseWriter
	Request   *http.Request
	Writer    ResponseWriter

	handlers HandlersChain
	index    int8
	fullPath string

	engine *Engine
}

func (c *Context) reset() {
	c.Writer = &c.writermem
	c.handlers = nil
	c.index = -1
	c.fullPath = ""
}

func (c *Context) Next() {
	c.index++
	for c.index < int8(len(c.handlers)) {
		c.handlers[c.index](c)
		c.index++
	}
}

type Engine struct {
	routes map[string]HandlersChain
	pool   sync.Pool
}

func New() *Engine {
	engine := &Engine{routes: map[string]HandlersChain{}}
	engine.pool.New = func() any {
		return engine.allocateContext()
	}
	return engine
}

func (engine *Engine) allocateContext() *Context {
	return &Context{engine: engine}
}

func (engine *Engine) GET(path string, handlers ...HandlerFunc) {
	engine.routes[path] = handlers
}

// ServeHTTP conforms to the http.Handler interface.
func (engine *Engine) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c := engine.pool.Get().(*Context)
	c.writermem.reset(w)
	c.Request = req
	c.reset()

	engine.handleHTTPRequest(c)

	// Let go of this request's objects before the Context goes idle.
	c.Request = nil
	c.writermem.ResponseWriter = nil
	engine.pool.Put(c)
}

func (engine *Engine) handleHTTPRequest(c *Context) {
	path := c.Request.URL.Path
	if handlers, ok := engine.routes[path]; ok {
		c.handlers = handlers
		c.fullPath = path
		c.Next()
		return
	}
	c.Writer.WriteHeader(http.StatusNotFound)
	c.Writer.Write([]byte("404 page not found"))
}
