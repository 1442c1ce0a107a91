// Package bug reproduces the shape of goravel/gin#222 (https://github.com/goravel/gin/pull/222):
// every Goravel middleware runs inside an adapter that takes a *Context from a sync.Pool and
// hands it back in a deferred func when the adapter returns. The Timeout middleware ran the
// rest of the chain in a goroutine that captured the pooled *Context; when the deadline fired
// it returned early, the adapter's deferred Put recycled the *Context, and the still-running
// goroutine kept calling ctx.Request().Next() on an object now owned by another request.
// Check: useafterput (the pooled *Context is handed to a goroutine that outlives the deferred
// Put in the adapter; reported at the go statement that hands it off).
package bug

import (
	"context"
	"errors"
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

func (c *Context) Context() context.Context {
	return c.instance.Request.Context()
}

func (c *Context) WithContext(ctx context.Context) {
	c.instance.Request = c.instance.Request.WithContext(ctx)
}

func (r *ContextRequest) Next() {
	r.instance.Next()
}

func (r *ContextRequest) Abort(code int) {
	r.instance.AbortWithStatus(code)
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

// Timeout creates middleware to set a timeout for a request.
func Timeout(timeout time.Duration) Middleware {
	return func(ctx *Context) {
		if timeout <= 0 {
			ctx.Request().Next()
			return
		}

		timeoutCtx, cancel := context.WithTimeout(ctx.Context(), timeout)
		defer cancel()

		ctx.WithContext(timeoutCtx)

		done := make(chan struct{})

		go func() { // want `useafterput`
			defer close(done)
			ctx.Request().Next()
		}()

		select {
		case <-done:
		case <-timeoutCtx.Done():
			if errors.Is(timeoutCtx.Err(), context.DeadlineExceeded) {
				ctx.Request().Abort(http.StatusRequestTimeout)
			}
		}
	}
}

// Register wires the timeout middleware in front of the route handlers.
func Register(handlers []func(*EngineContext), timeout time.Duration) []func(*EngineContext) {
	return append([]func(*EngineContext){middlewareToEngineHandler(Timeout(timeout))}, handlers...)
}
