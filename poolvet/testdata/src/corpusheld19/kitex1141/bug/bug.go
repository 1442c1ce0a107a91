// Package bug reproduces the shape of cloudwego/kitex#1141 (https://github.com/cloudwego/kitex/pull/1141):
// the inline (merged-deployment) client's Call takes an RPCInfo from the
// rpcinfo pool, stores it in the context and defers a closure that finishes
// tracing and puts the RPCInfo back with PutRPCInfo. When a user middleware
// runs the rest of the endpoint chain in its own goroutine and returns early
// (a timeout middleware), Call returns with an error, the deferred closure
// recycles the RPCInfo, and the still-running endpoint keeps reading and
// writing it through the context, racing with the next call that got it from
// the pool (panics). The fix only recycles the RPCInfo when the endpoint
// chain returned without error.
// Check: useafterput (the pooled RPCInfo reaches a goroutine through ctx and
// the endpoint chain that outlives the deferred PutRPCInfo; reported at the
// call that hands it to the chain).
package bug

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Invocation holds per-call data.
type Invocation struct {
	method       string
	bizStatusErr error
}

// BizStatusErr returns the business error set by the server.
func (i *Invocation) BizStatusErr() error { return i.bizStatusErr }

// SetBizStatusErr records a business error.
func (i *Invocation) SetBizStatusErr(err error) { i.bizStatusErr = err }

// RPCInfo is the pooled per-call metadata.
type RPCInfo struct {
	invocation *Invocation
	to         string
}

// Invocation returns the invocation.
func (r *RPCInfo) Invocation() *Invocation { return r.invocation }

var rpcInfoPool = sync.Pool{New: func() any { return &RPCInfo{} }}

// NewRPCInfo takes an RPCInfo from the pool.
func NewRPCInfo(to string, ink *Invocation) *RPCInfo {
	r := rpcInfoPool.Get().(*RPCInfo)
	r.to = to
	r.invocation = ink
	return r
}

// PutRPCInfo zeroes ri and recycles it.
func PutRPCInfo(ri *RPCInfo) {
	if ri == nil {
		return
	}
	ri.invocation = nil
	ri.to = ""
	rpcInfoPool.Put(ri)
}

type ctxKey struct{}

// NewCtxWithRPCInfo stores ri in ctx.
func NewCtxWithRPCInfo(ctx context.Context, ri *RPCInfo) context.Context {
	return context.WithValue(ctx, ctxKey{}, ri)
}

// GetRPCInfo loads the RPCInfo from ctx.
func GetRPCInfo(ctx context.Context) *RPCInfo {
	ri, _ := ctx.Value(ctxKey{}).(*RPCInfo)
	return ri
}

// Endpoint is one step of the call chain.
type Endpoint func(ctx context.Context, req, resp any) error

// Middleware wraps an endpoint.
type Middleware func(Endpoint) Endpoint

// ErrTimeout is returned by the timeout middleware.
var ErrTimeout = errors.New("rpc timeout")

// TimeoutMW runs next in its own goroutine and gives up after d; next keeps
// running (and using the RPCInfo in ctx) after the middleware returned.
func TimeoutMW(d time.Duration) Middleware {
	return func(next Endpoint) Endpoint {
		return func(ctx context.Context, req, resp any) error {
			done := make(chan error, 1)
			go func() { done <- next(ctx, req, resp) }()
			select {
			case err := <-done:
				return err
			case <-time.After(d):
				return ErrTimeout
			}
		}
	}
}

// callServer is the in-process server side of the merged deployment.
func callServer(ctx context.Context, req, resp any) error {
	ri := GetRPCInfo(ctx)
	time.Sleep(10 * time.Millisecond)
	if ri.Invocation().method == "" {
		ri.Invocation().SetBizStatusErr(errors.New("unknown method"))
	}
	return nil
}

// Tracer receives call events.
type Tracer interface {
	DoFinish(ctx context.Context, ri *RPCInfo, err error)
}

type serviceInlineClient struct {
	tracer Tracer
	eps    Endpoint
}

// NewInlineClient builds a client with user middlewares around the server.
func NewInlineClient(tracer Tracer, mws ...Middleware) *serviceInlineClient {
	ep := Endpoint(callServer)
	for i := len(mws) - 1; i >= 0; i-- {
		ep = mws[i](ep)
	}
	return &serviceInlineClient{tracer: tracer, eps: ep}
}

func (kc *serviceInlineClient) initRPCInfo(ctx context.Context, method string) (context.Context, *RPCInfo) {
	ri := NewRPCInfo("inline", &Invocation{method: method})
	return NewCtxWithRPCInfo(ctx, ri), ri
}

// Call performs one call.
func (kc *serviceInlineClient) Call(ctx context.Context, method string, request, response any) (err error) {
	var ri *RPCInfo
	ctx, ri = kc.initRPCInfo(ctx, method)

	var reportErr error
	defer func() {
		if panicInfo := recover(); panicInfo != nil {
			reportErr = errors.New("client panic")
		}
		kc.tracer.DoFinish(ctx, ri, reportErr)
		PutRPCInfo(ri)
	}()
	reportErr = kc.eps(ctx, request, response) // want `useafterput`

	if reportErr == nil {
		err = ri.Invocation().BizStatusErr()
	} else {
		err = reportErr
	}
	return err
}
