// Package bug reproduces the shape of savsgio/atreugo#58
// (https://github.com/savsgio/atreugo/issues/58): every request wraps the
// server's context in a *RequestCtx from a package-level sync.Pool, and
// releaseRequestCtx calls reset() before the Put. reset() cleared skipView
// and the wrapped context but not next, the flag a middleware sets with
// ctx.Next() to let the chain go on. A context released with next still true
// (a middleware that called Next and then failed, or the view calling Next)
// let the next request's first middleware pass without calling Next. The
// maintainer confirmed and added ctx.next = false to reset().
//
// Check: noreset (stale bool field: reset() forgets next, which the chain
// reads after each middleware; reported at the Put in releaseRequestCtx).
package bug

import "sync"

// ServerCtx is the server's per-request context that RequestCtx wraps.
type ServerCtx struct {
	Path   string
	Status int
}

// RequestCtx is the context handed to middlewares and views.
type RequestCtx struct {
	next     bool
	skipView bool
	*ServerCtx
}

// Middleware runs before the view; it calls ctx.Next() to go on.
type Middleware func(ctx *RequestCtx) error

// View produces the response.
type View func(ctx *RequestCtx) error

var requestCtxPool = sync.Pool{
	New: func() any {
		return new(RequestCtx)
	},
}

func acquireRequestCtx(ctx *ServerCtx) *RequestCtx {
	actx := requestCtxPool.Get().(*RequestCtx)
	actx.ServerCtx = ctx
	return actx
}

func releaseRequestCtx(actx *RequestCtx) {
	actx.reset()
	requestCtxPool.Put(actx) // want `noreset`
}

func (ctx *RequestCtx) reset() {
	ctx.skipView = false
	ctx.ServerCtx = nil
}

// Next passes control to the next middleware or to the view.
func (ctx *RequestCtx) Next() error {
	ctx.next = true
	return nil
}

// SkipView makes the request skip the view.
func (ctx *RequestCtx) SkipView() {
	ctx.skipView = true
}

// Router runs the before middlewares and then the view.
type Router struct {
	before []Middleware
}

// Handler returns the server handler for view.
func (r *Router) Handler(view View) func(ctx *ServerCtx) {
	return func(ctx *ServerCtx) {
		actx := acquireRequestCtx(ctx)
		for _, m := range r.before {
			if err := m(actx); err != nil {
				actx.Status = 403
				actx.skipView = true
				break
			} else if !actx.next {
				actx.skipView = true
				break
			}
			actx.next = false
		}
		if !actx.skipView {
			if err := view(actx); err != nil {
				actx.Status = 500
			}
		}
		releaseRequestCtx(actx)
	}
}
