// Package fixed is the fix of go-kratos/kratos#3072
// (https://github.com/go-kratos/kratos/pull/3072): the context wrapper is
// no longer pooled; each request gets its own.
package fixed

import (
	"context"
	"net/http"
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
		ctx := new(wrapper)
		ctx.Reset(res, req)
		if err := ping(ctx, client); err != nil {
			res.WriteHeader(http.StatusBadGateway)
		}
	}
}
