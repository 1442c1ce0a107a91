// Package bug reproduces the shape of milvus-io/milvus#49981
// (https://github.com/milvus-io/milvus/issues/49981, fixed by
// https://github.com/milvus-io/milvus/pull/49982): the REST timeout
// middleware ran the real handler in a goroutine with the original
// *gin.Context and, on timeout, returned a 408 without waiting for it. Gin
// then put the context back into its sync.Pool, and the late handler kept
// writing into a context already reused by another request ("concurrent
// map writes", mixed-up responses). The fix runs the handler on a copy of
// the context. Gin's engine and the middleware are condensed into one
// package here.
//
// Check: useafterput (hand-off to a goroutine inside a callee that can
// return without waiting, then the caller puts the object back; per
// docs/poolvet.md the report is at the Put in ServeHTTP).
package bug

import (
	"fmt"
	"io"
	"maps"
	"sync"
	"time"
)

type Context struct {
	Keys    map[string]any
	status  int
	path    string
	aborted bool
}

func (c *Context) reset(path string) {
	clear(c.Keys)
	c.status = 200
	c.path = path
	c.aborted = false
}

func (c *Context) Set(key string, v any) { c.Keys[key] = v }

func (c *Context) Status(code int) { c.status = code }

func (c *Context) AbortWithStatus(code int) {
	c.status = code
	c.aborted = true
}

// Copy returns a context safe to use outside the request's lifetime.
func (c *Context) Copy() *Context {
	cp := &Context{status: c.status, path: c.path, Keys: make(map[string]any, len(c.Keys))}
	maps.Copy(cp.Keys, c.Keys)
	return cp
}

type HandlerFunc func(*Context)

type Engine struct {
	pool    sync.Pool
	timeout time.Duration
	handler HandlerFunc
}

func New(h HandlerFunc, timeout time.Duration) *Engine {
	e := &Engine{timeout: timeout, handler: h}
	e.pool.New = func() any { return &Context{Keys: make(map[string]any)} }
	return e
}

// timeoutMiddleware answers 408 when the handler is too slow.
func timeoutMiddleware(c *Context, next HandlerFunc, timeout time.Duration) {
	done := make(chan struct{})
	go func() {
		next(c)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(timeout):
		c.AbortWithStatus(408)
	}
}

func (e *Engine) ServeHTTP(w io.Writer, path string) {
	c := e.pool.Get().(*Context)
	c.reset(path)
	timeoutMiddleware(c, e.handler, e.timeout)
	fmt.Fprintf(w, "%d %s\n", c.status, c.path)
	e.pool.Put(c) // want `useafterput`
}
