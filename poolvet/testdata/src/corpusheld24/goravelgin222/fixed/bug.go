// Package bug is the fixed twin of goravel/gin#222 (https://github.com/goravel/gin/pull/222):
// the Timeout middleware no longer runs the chain in a goroutine that holds the pooled
// *Context; it delegates to a router-level timeout that works on a private copy of the
// router's own context, so the adapter's deferred Put recycles an object nobody else holds.
// Check: useafterput (none expected here).
package bug

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// EngineContext stands in for *gin.Context: owned by the router, not by the pools below.
type EngineContext struct {
	Request  *http.Request
	handlers []func(*EngineContext)
	index    int
	status   int
}

func (e *EngineContext) Next() {
	e.index++
	for e.index < len(e.handlers) {
		e.handlers[e.index](e)
		e.index++
	}
}

func (e *EngineContext) AbortWithStatus(code int) {
	e.status = code
	e.index = len(e.handlers)
}

func (e *EngineContext) copy() *EngineContext {
	cp := *e
	cp.handlers = make([]func(*EngineContext), len(e.handlers))
	copy(cp.handlers, e.handlers)
	return &cp
}

var contextPool = sync.Pool{New: func() any {
	return &Context{}
}}

var contextRequestPool = sync.Pool{New: func() any {
	return &ContextRequest{}
}}

type Context struct {
	instance *EngineContext
	request  *ContextRequest
}

type ContextRequest struct {
	ctx      *Context
	instance *EngineContext
}

func NewContext(c *EngineContext) *Context {
	ctx := contextPool.Get().(*Context)
	ctx.instance = c
	return ctx
}

func NewContextRequest(ctx *Context) *ContextRequest {
	r := contextRequestPool.Get().(*ContextRequest)
	r.ctx = ctx
	r.instance = ctx.instance
	return r
}

func (c *Context) Request() *ContextRequest {
	if c.request == nil {
		c.request = NewContextRequest(c)
	}
	return c.request
}

func (c *Context) Instance() *EngineContext {
	return c.instance
}

func (r *ContextRequest) Next() {
	r.instance.Next()
}

type Middleware func(ctx *Context)

// middlewareToEngineHandler adapts a Goravel middleware to the router.
func middlewareToEngineHandler(middleware Middleware) func(*EngineContext) {
	return func(c *EngineContext) {
		context := NewContext(c)
		defer func() {
			if context.request != nil {
				context.request.ctx = nil
				context.request.instance = nil
				contextRequestPool.Put(context.request)
			}
			context.request = nil
			context.instance = nil
			contextPool.Put(context)
		}()

		middleware(context)
	}
}

// engineTimeout plays the role of gin-contrib/timeout: it only ever touches router state.
func engineTimeout(timeout time.Duration) func(*EngineContext) {
	return func(c *EngineContext) {
		timeoutCtx, cancel := context.WithTimeout(c.Request.Context(), timeout)
		defer cancel()

		work := c.copy()
		work.Request = c.Request.WithContext(timeoutCtx)

		done := make(chan struct{})
		go func() {
			defer close(done)
			work.Next()
		}()

		select {
		case <-done:
			c.status = work.status
			c.index = len(c.handlers)
		case <-timeoutCtx.Done():
			c.AbortWithStatus(http.StatusRequestTimeout)
		}
	}
}

// Timeout creates middleware to set a timeout for a request.
func Timeout(timeout time.Duration) Middleware {
	timeoutMiddleware := engineTimeout(timeout)

	return func(ctx *Context) {
		if timeout <= 0 {
			ctx.Request().Next()
			return
		}

		timeoutMiddleware(ctx.Instance())
	}
}

// Register wires the timeout middleware in front of the route handlers.
func Register(handlers []func(*EngineContext), timeout time.Duration) []func(*EngineContext) {
	return append([]func(*EngineContext){middlewareToEngineHandler(Timeout(timeout))}, handlers...)
}
