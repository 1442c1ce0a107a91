// Source: https://github.com/labstack/echo/pull/86
// (commit 87b24d3b7ee421b636d1725de95aff6cfb55c22c "Response reset size", echo response.go, May 2015)
//
// Bug: Echo.ServeHTTP takes a *Context (holding a *Response) from e.pool,
// calls c.reset(w, r, e), runs the handler chain and puts the context back.
// Response.reset set the new writer, the status and the committed flag but
// forgot the byte counter r.size, which Write keeps incrementing. A context
// reused from the pool therefore reported, e.g. in the Logger middleware's
// c.Response().Size(), the bytes of every earlier request it served plus the
// current one.
//
// Fix: Response.reset also sets r.size = 0.
//
// Check: noreset (at Response.reset, the reset function run on every pooled
// Context that forgets the size field)
package bug

import (
	"log"
	"net/http"
	"sync"
	"time"
)

// --- response.go ---

type (
	Response struct {
		writer    http.ResponseWriter
		status    int
		size      int64
		committed bool
	}
)

func NewResponse(w http.ResponseWriter) *Response {
	return &Response{writer: w}
}

func (r *Response) Header() http.Header {
	return r.writer.Header()
}

func (r *Response) WriteHeader(code int) {
	if r.committed {
		log.Printf("echo => %s", "response already committed")
		return
	}
	r.status = code
	r.writer.WriteHeader(code)
	r.committed = true
}

func (r *Response) Write(b []byte) (n int, err error) {
	n, err = r.writer.Write(b)
	r.size += int64(n)
	return n, err
}

func (r *Response) Status() int {
	return r.status
}

func (r *Response) Size() int64 {
	return r.size
}

func (r *Response) reset(w http.ResponseWriter) { // want `noreset`
	r.writer = w
	r.status = http.StatusOK
	r.committed = false
}

// --- context.go ---

type (
	// Context represents context for the current request.
	Context struct {
		request  *http.Request
		response *Response
		pnames   []string
		pvalues  []string
		store    store
		echo     *Echo
	}
	store map[string]interface{}
)

func NewContext(req *http.Request, res *Response, e *Echo) *Context {
	return &Context{
		request:  req,
		response: res,
		echo:     e,
		pnames:   make([]string, e.maxParam),
		pvalues:  make([]string, e.maxParam),
		store:    make(store),
	}
}

func (c *Context) Request() *http.Request { return c.request }

func (c *Context) Response() *Response { return c.response }

func (c *Context) reset(w http.ResponseWriter, r *http.Request, e *Echo) {
	c.request = r
	c.response.reset(w)
	c.echo = e
}

// --- echo.go ---

type (
	HandlerFunc    func(*Context) error
	MiddlewareFunc func(HandlerFunc) HandlerFunc

	Echo struct {
		middleware      []MiddlewareFunc
		maxParam        int
		notFoundHandler HandlerFunc
		pool            sync.Pool
	}
)

// New creates an Echo instance.
func New() (e *Echo) {
	e = &Echo{maxParam: 5}
	e.pool.New = func() interface{} {
		return NewContext(nil, new(Response), e)
	}
	e.notFoundHandler = func(c *Context) error {
		http.NotFound(c.response, c.request)
		return nil
	}
	return
}

func (e *Echo) Use(m MiddlewareFunc) {
	e.middleware = append(e.middleware, m)
}

func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := e.pool.Get().(*Context)
	c.reset(w, r, e)
	h := e.notFoundHandler

	// Chain middleware with handler in the end
	for i := len(e.middleware) - 1; i >= 0; i-- {
		h = e.middleware[i](h)
	}

	// Execute chain
	if he := h(c); he != nil {
		http.Error(w, he.Error(), http.StatusInternalServerError)
	}

	e.pool.Put(c)
}

// --- middleware/logger.go ---

func Logger() MiddlewareFunc {
	return func(h HandlerFunc) HandlerFunc {
		return func(c *Context) error {
			start := time.Now()
			if err := h(c); err != nil {
				return err
			}
			end := time.Now()
			method := c.Request().Method
			path := c.Request().URL.Path
			if path == "" {
				path = "/"
			}
			size := c.Response().Size()
			n := c.Response().Status()
			log.Printf("%s %s %d %s %d", method, path, n, end.Sub(start), size)
			return nil
		}
	}
}
