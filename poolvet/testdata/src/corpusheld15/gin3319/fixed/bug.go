// Package fixed is the usage gin documents for gin-gonic/gin#3319
// (https://github.com/gin-gonic/gin/issues/3319): the goroutine gets
// c.Copy(), a context of its own, so the pooled one is no longer used
// when the engine puts it back.
package fixed

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

// Copy returns a context that owns its own keys.
func (c *Context) Copy() *Context {
	cp := &Context{query: c.query, Keys: make(map[string]any, len(c.Keys))}
	for k, v := range c.Keys {
		cp.Keys[k] = v
	}
	return cp
}

type Engine struct {
	pool sync.Pool
}

func New() *Engine {
	e := &Engine{}
	e.pool.New = func() any { return new(Context) }
	return e
}

func keepQuery(c *Context) {
	c.Set("a", c.query)
}

func testHandler(c *Context) {
	cCp := c.Copy()
	go func(c *Context) {
		time.Sleep(50 * time.Millisecond)
		v, _ := c.Get("a")
		fmt.Println(v)
	}(cCp)
}

func (e *Engine) ServeHTTP(query string) {
	c := e.pool.Get().(*Context)
	c.reset()
	c.query = query

	keepQuery(c)
	testHandler(c)

	e.pool.Put(c)
}
