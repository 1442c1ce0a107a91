// Package bug reproduces the shape of vllm-project/aibrix#2440
// (https://github.com/vllm-project/aibrix/issues/2440): a RoutingContext is
// returned to a sync.Pool by its Delete method, called from a deferred
// function in the response handler, while the caller (Process) keeps using
// the same pointer afterwards: the next request's context is modified.
//
// Check: useafterput (the Put happens in a callee, a method named Delete,
// and the object is used after that call).
package bug

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

// Delete gives the context back to the pool.
func (c *RoutingContext) Delete() {
	ctxPool.Put(c)
}

func handleResponseBody(c *RoutingContext, done bool) {
	defer func() {
		if done {
			c.Delete()
		}
	}()
	c.pending--
}

func Process(id string) {
	c := NewRoutingContext(id)
	handleResponseBody(c, true)
	c.statsUpdated = true // want `used after|useafterput`
}
