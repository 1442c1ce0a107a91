// Package bug reproduces the shape of valyala/fasthttp#1205
// (https://github.com/valyala/fasthttp/issues/1205): a handler derived a
// timeout context from the pooled *RequestCtx. Deriving a context from a
// parent that is not a stdlib context starts a goroutine that watches the
// parent's Done channel. The server released the RequestCtx to its pool as
// soon as the handler returned (reset now also cleared ctx.s), while that
// goroutine could still call ctx.Done() on it: a nil dereference panic, or
// a wait on the next request's server state.
//
// Check: useafterput (hand-off: the pooled ctx is given, through the
// handler, to a goroutine that nobody waits for; the report is expected at
// the Put in serveConn that follows the handler call).
package bug

import (
	"sync"
	"time"
)

type server struct {
	done chan struct{}
}

type RequestCtx struct {
	s      *server
	connID uint64
}

func (ctx *RequestCtx) Done() <-chan struct{} { return ctx.s.done }

func (ctx *RequestCtx) reset() {
	ctx.s = nil
	ctx.connID = 0
}

var ctxPool = sync.Pool{New: func() any { return new(RequestCtx) }}

// watchParent is what deriving a context does for a foreign parent: a
// goroutine waits for either the parent or the child to be done.
func watchParent(parent *RequestCtx, child <-chan struct{}) {
	go func() {
		select {
		case <-parent.Done():
		case <-child:
		}
	}()
}

type handlerData struct {
	requestCtx *RequestCtx
	deadline   time.Time
}

// handle is the user's request handler.
func handle(ctx *RequestCtx) {
	h := handlerData{requestCtx: ctx, deadline: time.Now().Add(500 * time.Millisecond)}
	stop := make(chan struct{})
	watchParent(ctx, stop)
	defer close(stop)
	_ = h.deadline
	h.requestCtx = nil
}

func serveConn(s *server, connID uint64) {
	ctx := ctxPool.Get().(*RequestCtx)
	ctx.s = s
	ctx.connID = connID
	handle(ctx)
	ctx.reset()
	ctxPool.Put(ctx) // want `useafterput`
}
