// Package fixed is the obvious fix of valyala/fasthttp#1205
// (https://github.com/valyala/fasthttp/issues/1205): the handler does not
// return while a goroutine it started can still look at the pooled
// RequestCtx; it stops the watcher and waits for it to exit, so the server
// may release the ctx as soon as the handler is done. (fasthttp itself made
// the released ctx harmless instead, by no longer clearing ctx.s.)
package fixed

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

// watchParent waits for either the parent or the child to be done and
// reports on exited when it no longer looks at the parent.
func watchParent(parent *RequestCtx, child <-chan struct{}, exited chan<- struct{}) {
	go func() {
		defer close(exited)
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
	exited := make(chan struct{})
	watchParent(ctx, stop, exited)
	_ = h.deadline
	h.requestCtx = nil
	close(stop)
	<-exited
}

func serveConn(s *server, connID uint64) {
	ctx := ctxPool.Get().(*RequestCtx)
	ctx.s = s
	ctx.connID = connID
	handle(ctx)
	ctx.reset()
	ctxPool.Put(ctx)
}
