// Package bug reproduces the shape of go-kratos/kratos#3070, fixed by
// #3072 (https://github.com/go-kratos/kratos/pull/3072): the HTTP router
// took its context wrapper from a sync.Pool and put it back (after Reset)
// when the handler returned; a handler that passed the context to an
// outgoing net/http request (req.WithContext) left the transport's DNS
// lookup goroutine using it after a timeout, racing with the next request's
// Reset (and crashing the process).
//
// Check: useafterput (hand-off to net/http through the context; Put after
// the handler returns).
package bug

import (
	"context"
	"net/http"
	"sync"
	"time"
)

type wrapper struct {
	ctx context.Context
	req *http.Request
	res http.ResponseWriter
}

func (w *wrapper) Reset(res http.ResponseWriter, req *http.Request) {
	w.res, w.req, w.ctx = res, req, req.Context()
}

func (w *wrapper) Deadline() (time.Time, bool) { return w.ctx.Deadline() }
func (w *wrapper) Done() <-chan struct{}       { return w.ctx.Done() }
func (w *wrapper) Err() error                  { return w.ctx.Err() }
func (w *wrapper) Value(key any) any           { return w.ctx.Value(key) }

var ctxPool = sync.Pool{New: func() any { return new(wrapper) }}

func ping(ctx *wrapper, client *http.Client) error {
	req, err := http.NewRequest(http.MethodGet, "http://upstream.invalid/", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Handle(client *http.Client) http.HandlerFunc {
	return func(res http.ResponseWriter, req *http.Request) {
		ctx := ctxPool.Get().(*wrapper)
		ctx.Reset(res, req)
		if err := ping(ctx, client); err != nil {
			res.WriteHeader(http.StatusBadGateway)
		}
		ctx.Reset(nil, req)
		ctxPool.Put(ctx) // want `may still use|handed to|used after|useafterput`
	}
}
