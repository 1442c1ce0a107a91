package fixed

import (
	"context"
	"sync"
)

// Trimmed re-creation of the parts of cloudwego/hertz that bifrost's gateway
// runs on: app.RequestContext objects come from the engine's ctxPool, the
// handler chain runs on them, and after the handler returns the server
// resets the context and puts it back into the pool.

type Request struct {
	path []byte
	uri  []byte
}

func (r *Request) Path() []byte       { return r.path }
func (r *Request) RequestURI() []byte { return r.uri }

type Response struct {
	statusCode int
	body       []byte
}

func (r *Response) SetStatusCode(code int) { r.statusCode = code }
func (r *Response) StatusCode() int        { return r.statusCode }

type RequestContext struct {
	Request  Request
	Response Response

	mu      sync.RWMutex
	Keys    map[string]interface{}
	aborted bool
}

func (c *RequestContext) Set(key string, value interface{}) {
	c.mu.Lock()
	if c.Keys == nil {
		c.Keys = make(map[string]interface{})
	}
	c.Keys[key] = value
	c.mu.Unlock()
}

func (c *RequestContext) Get(key string) (value interface{}, exists bool) {
	c.mu.RLock()
	value, exists = c.Keys[key]
	c.mu.RUnlock()
	return
}

func (c *RequestContext) GetBool(key string) (b bool) {
	if val, ok := c.Get(key); ok && val != nil {
		b, _ = val.(bool)
	}
	return
}

func (c *RequestContext) SetStatusCode(code int) { c.Response.SetStatusCode(code) }
func (c *RequestContext) Abort()                 { c.aborted = true }

// Reset clears the context before it goes back to the pool.
func (c *RequestContext) Reset() {
	c.Request = Request{}
	c.Response = Response{}
	c.Keys = nil
	c.aborted = false
}

type HandlerFunc func(ctx context.Context, c *RequestContext)

type Engine struct {
	ctxPool sync.Pool
	handler HandlerFunc
}

func NewEngine(h HandlerFunc) *Engine {
	e := &Engine{handler: h}
	e.ctxPool.New = func() interface{} {
		return &RequestContext{}
	}
	return e
}

// Serve handles one request read from a connection.
func (e *Engine) Serve(ctx context.Context, path, uri []byte) int {
	c := e.ctxPool.Get().(*RequestContext)
	c.Request.path = path
	c.Request.uri = uri

	e.handler(ctx, c)
	status := c.Response.StatusCode()

	c.Reset()
	e.ctxPool.Put(c)
	return status
}
