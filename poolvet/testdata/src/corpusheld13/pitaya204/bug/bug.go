// Package bug reproduces the shape of topfreegames/pitaya#204
// (https://github.com/topfreegames/pitaya/pull/204): RemoteService.Call
// took its *protos.Response from a sync.Pool and registered a deferred Put,
// then returned that same response to the caller. The reviewer pointed out
// that another goroutine can Get the object while the caller of Call is
// still reading it.
//
// Check: useafterput (the pooled object itself is returned past a deferred
// Put; per docs/poolvet.md the report is at the return).
package bug

import (
	"context"
	"sync"
)

type Response struct {
	Data  []byte
	Error string
}

func (r *Response) Reset() { *r = Response{} }

type Request struct {
	Route string
	Data  []byte
}

type RemoteService struct {
	responsePool sync.Pool
}

func NewRemoteService() *RemoteService {
	return &RemoteService{responsePool: sync.Pool{New: func() any { return new(Response) }}}
}

func (r *RemoteService) process(ctx context.Context, req *Request, res *Response) {
	if req.Route == "" {
		res.Error = "empty route"
		return
	}
	res.Data = req.Data
}

func (r *RemoteService) Call(ctx context.Context, req *Request) (*Response, error) {
	res := r.responsePool.Get().(*Response)
	res.Reset()
	defer r.responsePool.Put(res)

	r.process(ctx, req, res)
	return res, nil // want `useafterput`
}
