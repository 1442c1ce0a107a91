// Package bug reproduces the shape of gin-gonic/gin#3319
// (https://github.com/gin-gonic/gin/issues/3319): a handler started a
// goroutine with the request's *gin.Context and read a value from it after
// a slow downstream call. The engine puts the Context back into its pool
// as soon as the handler returns, so the goroutine of request a=1 read the
// key of a later request (a=2) from the recycled Context.
//
// Check: useafterput (hand-off: a callee starts a goroutine with the pooled
// context, then the engine puts the context back without waiting).
package bug

import (
	"fmt"
	"sync"
	"time"
)

type Context struct {
	query string
	Keys  map[string]any
}

func (c *Context) reset() {
	c.query = ""
	c.Keys = nil
}

func (c *Context) Set(key string, value any) {
	if c.Keys == nil {
		c.Keys = make(map[string]any)
	}
	c.Keys[key] = value
}

func (c *Context) Get(key string) (any, bool) {
	v, ok := c.Keys[key]
	return v, ok
}

type Engine struct {
	pool sync.Pool
}

func New() *Engine {
	e := &Engine{}
	e.pool.New = func() any { return new(Context) }
	return e
}

// keepQuery is the middleware: it stores the query parameter in the context.
func keepQuery(c *Context) {
	c.Set("a", c.query)
}

// testHandler answers at once and finishes the work in the background.
func testHandler(c *Context) {
	go func(c *Context) {
		time.Sleep(50 * time.Millisecond) // the call to the other service
		v, _ := c.Get("a")
		fmt.Println(v)
	}(c)
}

func (e *Engine) ServeHTTP(query string) {
	c := e.pool.Get().(*Context)
	c.reset()
	c.query = query

	keepQuery(c)
	testHandler(c)

	e.pool.Put(c) // want `useafterput`
}
