// Package fixed is the fixed twin of corpusheld13/pitaya204: the response
// handed to the caller is not pooled (the caller owns it).
package fixed

import (
	"context"
)

type Response struct {
	Data  []byte
	Error string
}

type Request struct {
	Route string
	Data  []byte
}

type RemoteService struct{}

func NewRemoteService() *RemoteService { return &RemoteService{} }

func (r *RemoteService) process(ctx context.Context, req *Request, res *Response) {
	if req.Route == "" {
		res.Error = "empty route"
		return
	}
	res.Data = req.Data
}

func (r *RemoteService) Call(ctx context.Context, req *Request) (*Response, error) {
	res := new(Response)
	r.process(ctx, req, res)
	return res, nil
}
