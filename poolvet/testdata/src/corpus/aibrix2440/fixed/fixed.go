// Package fixed is the fix of vllm-project/aibrix#2440
// (https://github.com/vllm-project/aibrix/issues/2440): only the owner,
// Process, gives the context back, after its last use.
package fixed

import "sync"

type RoutingContext struct {
	RequestID    string
	statsUpdated bool
	pending      int
}

var ctxPool = sync.Pool{New: func() any { return new(RoutingContext) }}

func NewRoutingContext(id string) *RoutingContext {
	c := ctxPool.Get().(*RoutingContext)
	*c = RoutingContext{RequestID: id}
	return c
}

func (c *RoutingContext) Delete() {
	ctxPool.Put(c)
}

func handleResponseBody(c *RoutingContext) {
	c.pending--
}

func Process(id string) {
	c := NewRoutingContext(id)
	handleResponseBody(c)
	c.statsUpdated = true
	c.Delete()
}
