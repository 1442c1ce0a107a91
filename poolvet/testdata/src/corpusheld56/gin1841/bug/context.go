package bug

import "net/http"

// Context is the most important part of gin.
type Context struct {
	Request *http.Request
	Writer  http.ResponseWriter

	Params   Params
	handlers HandlersChain
	index    int8

	engine *Engine

	// Keys is a key/value pair exclusively for the context of each request.
	Keys map[string]interface{}
}

func (c *Context) reset() {
	c.Params = c.Params[0:0]
	c.handlers = nil
	c.index = -1
	c.Keys = nil
}

// Copy returns a copy of the current context that can be safely used outside the request's scope.
// This has to be used when the context has to be passed to a goroutine.
func (c *Context) Copy() *Context {
	var cp = *c
	cp.Writer = nil
	cp.index = abortIndex
	cp.handlers = nil
	cp.Keys = map[string]interface{}{}
	for k, v := range c.Keys {
		cp.Keys[k] = v
	}
	return &cp
}

// Next should be used only inside middleware.
func (c *Context) Next() {
	c.index++
	for c.index < int8(len(c.handlers)) {
		c.handlers[c.index](c)
		c.index++
	}
}

// Param returns the value of the URL param.
func (c *Context) Param(key string) string {
	v, _ := c.Params.Get(key)
	return v
}

// asyncNameHandler is the usage from the issue: hand a copy of the context
// to a goroutine that reads a path parameter later.
func asyncNameHandler(results chan<- string) HandlerFunc {
	return func(c *Context) {
		go func(c *Context) {
			results <- c.Param("name")
		}(c.Copy())
	}
}
