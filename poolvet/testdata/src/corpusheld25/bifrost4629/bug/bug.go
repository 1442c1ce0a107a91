// Package bug reproduces the shape of maximhq/bifrost#4629
// (https://github.com/maximhq/bifrost/pull/4629): the HTTP transport wraps the
// server's pooled request context (a fasthttp *RequestCtx) as the parent of a
// BifrostContext. For streaming responses the handler starts a goroutine that
// keeps using the BifrostContext and returns; the server then resets the
// request context and puts it back into its pool. Any Value lookup that misses
// the BifrostContext's own map falls through to the parent, i.e. reads the
// recycled request context (a nil-map panic / SIGSEGV in production). The fix
// stops Value from ever reading through to a pooled request-context parent
// (the user values were already copied at construction time).
//
// Check: useafterput (the streaming goroutine reads the pooled request
// context through BifrostContext.Value after the server released it; the
// report belongs on the read-through to the parent).
package bug

import (
	"sync"
	"time"
)

// RequestCtx stands for fasthttp.RequestCtx: pooled by the server and reset
// when the handler returns.
type RequestCtx struct {
	userValues map[any]any
	body       []byte
}

func (c *RequestCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *RequestCtx) Done() <-chan struct{}       { return nil }
func (c *RequestCtx) Err() error                  { return nil }

// Value reads the request's user values.
func (c *RequestCtx) Value(key any) any {
	return c.userValues[key]
}

func (c *RequestCtx) SetUserValue(key, val any) {
	if c.userValues == nil {
		c.userValues = make(map[any]any)
	}
	c.userValues[key] = val
}

func (c *RequestCtx) reset() {
	c.userValues = nil
	c.body = c.body[:0]
}

// Server hands out request contexts from a pool, like fasthttp.Server.
type Server struct {
	ctxPool sync.Pool
	Handler func(*RequestCtx)
}

func (s *Server) acquireCtx() *RequestCtx {
	if v := s.ctxPool.Get(); v != nil {
		return v.(*RequestCtx)
	}
	return &RequestCtx{}
}

func (s *Server) releaseCtx(ctx *RequestCtx) {
	ctx.reset()
	s.ctxPool.Put(ctx)
}

func (s *Server) serveConn(body []byte) {
	ctx := s.acquireCtx()
	ctx.body = append(ctx.body, body...)
	s.Handler(ctx)
	s.releaseCtx(ctx)
}

// parentCtx is the subset of context.Context BifrostContext delegates to.
type parentCtx interface {
	Value(key any) any
}

// BifrostContext copies the request's user values and keeps the request
// context as its parent.
type BifrostContext struct {
	parent     parentCtx
	valuesMu   sync.RWMutex
	userValues map[any]any
}

func ConvertToBifrostContext(ctx *RequestCtx) *BifrostContext {
	bc := &BifrostContext{parent: ctx, userValues: make(map[any]any)}
	for k, v := range ctx.userValues {
		bc.userValues[k] = v
	}
	return bc
}

// Value checks the local values, then delegates to the parent.
func (bc *BifrostContext) Value(key any) any {
	bc.valuesMu.RLock()
	if val, ok := bc.userValues[key]; ok {
		bc.valuesMu.RUnlock()
		return val
	}
	bc.valuesMu.RUnlock()
	if bc.parent == nil {
		return nil
	}
	return bc.parent.Value(key) // want `useafterput`
}

type traceKey struct{}
type fallbackKey struct{}

// streamHandler answers a streaming completion: the chunks are produced by
// a goroutine that outlives the handler.
func streamHandler(ctx *RequestCtx) {
	ctx.SetUserValue(traceKey{}, "trace-1")
	bc := ConvertToBifrostContext(ctx)
	chunks := make(chan string, 4)
	go func() {
		defer close(chunks)
		for i := 0; i < 3; i++ {
			time.Sleep(time.Millisecond)
			if bc.Value(fallbackKey{}) != nil {
				return
			}
			chunks <- "chunk"
		}
	}()
	// The handler returns immediately; the stream writer drains chunks.
	go func() {
		for range chunks {
		}
	}()
}

func Run() {
	s := &Server{Handler: streamHandler}
	s.serveConn([]byte(`{"stream":true}`))
}
