// Package bug reproduces the shape of duanhf2012/origin#850
// (https://github.com/duanhf2012/origin/pull/850, commit 5b8360a): in the
// game server framework's RPC agent loop, a request whose service is not
// registered is answered with an error and released with ReleaseRpcRequest,
// which hands its request data back to the processor's pool and puts the
// RpcRequest into the framework's PoolEx (whose Put clears RpcRequestData).
// The error log on the next line then read
// req.RpcRequestData.GetServiceMethod() from the released request: a nil
// interface (panic) or, after reuse, another call's method name. The fix (this
// twin) moves the release after the log.
// Check: useafterput (the log that reads req.RpcRequestData after ReleaseRpcRequest).
package bug

import (
	"fmt"
	"log"
	"strings"
	"sync"
)

// IPoolData is what PoolEx stores.
type IPoolData interface {
	Reset()
	IsRef() bool
	Ref()
	UnRef()
}

// PoolEx keeps up to cap(C) objects in a channel and the rest in a sync.Pool.
type PoolEx struct {
	C        chan IPoolData
	syncPool sync.Pool
}

// NewPoolEx builds a PoolEx.
func NewPoolEx(C chan IPoolData, New func() IPoolData) *PoolEx {
	var pool PoolEx
	pool.C = C
	pool.syncPool.New = func() interface{} {
		return New()
	}
	return &pool
}

// Get hands out a cached object or a new one.
func (pool *PoolEx) Get() IPoolData {
	select {
	case d := <-pool.C:
		d.Ref()
		return d
	default:
		data := pool.syncPool.Get().(IPoolData)
		data.Ref()
		return data
	}
}

// Put resets data and caches it.
func (pool *PoolEx) Put(data IPoolData) {
	if !data.IsRef() {
		panic("Repeatedly freeing memory")
	}
	data.Reset()
	data.UnRef()
	select {
	case pool.C <- data:
	default:
		pool.syncPool.Put(data)
	}
}

// IRpcRequestData is the decoded request header.
type IRpcRequestData interface {
	GetSeq() uint64
	GetServiceMethod() string
	GetInParam() []byte
	IsNoReply() bool
}

// PBRpcRequestData is the processor's request header.
type PBRpcRequestData struct {
	Seq           uint64
	ServiceMethod string
	InParam       []byte
	NoReply       bool
}

// GetSeq returns the sequence number.
func (d *PBRpcRequestData) GetSeq() uint64 { return d.Seq }

// GetServiceMethod returns "Service.Method".
func (d *PBRpcRequestData) GetServiceMethod() string { return d.ServiceMethod }

// GetInParam returns the encoded argument.
func (d *PBRpcRequestData) GetInParam() []byte { return d.InParam }

// IsNoReply reports whether the caller expects no answer.
func (d *PBRpcRequestData) IsNoReply() bool { return d.NoReply }

// PBProcessor owns the request header pool.
type PBProcessor struct{}

var rpcPbRequestDataPool = sync.Pool{New: func() interface{} { return &PBRpcRequestData{} }}

// MakeRpcRequest decodes a header into a pooled value.
func (p *PBProcessor) MakeRpcRequest(seq uint64, serviceMethod string, noReply bool, inParam []byte) IRpcRequestData {
	d := rpcPbRequestDataPool.Get().(*PBRpcRequestData)
	d.Seq = seq
	d.ServiceMethod = serviceMethod
	d.NoReply = noReply
	d.InParam = inParam
	return d
}

// ReleaseRpcRequest returns a header to its pool.
func (p *PBProcessor) ReleaseRpcRequest(data IRpcRequestData) {
	d, ok := data.(*PBRpcRequestData)
	if !ok {
		return
	}
	*d = PBRpcRequestData{}
	rpcPbRequestDataPool.Put(d)
}

// RpcRequest is one incoming call.
type RpcRequest struct {
	ref            bool
	RpcRequestData IRpcRequestData
	inParam        interface{}
	rpcProcessor   *PBProcessor
}

var rpcRequestPool = NewPoolEx(make(chan IPoolData, 10240), func() IPoolData {
	return &RpcRequest{}
})

// Clear drops everything the request refers to.
func (slf *RpcRequest) Clear() *RpcRequest {
	slf.RpcRequestData = nil
	slf.inParam = nil
	slf.rpcProcessor = nil
	return slf
}

// Reset clears the request for reuse.
func (slf *RpcRequest) Reset() { slf.Clear() }

// IsRef reports whether the request is handed out.
func (slf *RpcRequest) IsRef() bool { return slf.ref }

// Ref marks the request as handed out.
func (slf *RpcRequest) Ref() { slf.ref = true }

// UnRef marks the request as cached.
func (slf *RpcRequest) UnRef() { slf.ref = false }

// MakeRpcRequest takes a request from the pool.
func MakeRpcRequest(p *PBProcessor, seq uint64, serviceMethod string, noReply bool, inParam []byte) *RpcRequest {
	rpcRequest := rpcRequestPool.Get().(*RpcRequest)
	rpcRequest.rpcProcessor = p
	rpcRequest.RpcRequestData = p.MakeRpcRequest(seq, serviceMethod, noReply, inParam)
	return rpcRequest
}

// ReleaseRpcRequest returns the header and the request to their pools.
func ReleaseRpcRequest(rpcRequest *RpcRequest) {
	rpcRequest.rpcProcessor.ReleaseRpcRequest(rpcRequest.RpcRequestData)
	rpcRequestPool.Put(rpcRequest)
}

// RpcAgent serves one connection.
type RpcAgent struct {
	processor *PBProcessor
	handlers  map[string]func(req *RpcRequest)
	incoming  chan *PBRpcRequestData
	responses []string
}

// WriteResponse records an answer.
func (agent *RpcAgent) WriteResponse(serviceMethod string, seq uint64, err string) {
	agent.responses = append(agent.responses, fmt.Sprintf("%s#%d:%s", serviceMethod, seq, err))
}

// Run dispatches requests until the connection closes.
func (agent *RpcAgent) Run() {
	for in := range agent.incoming {
		req := MakeRpcRequest(agent.processor, in.Seq, in.ServiceMethod, in.NoReply, in.InParam)

		serviceMethod := strings.Split(req.RpcRequestData.GetServiceMethod(), ".")
		if len(serviceMethod) < 1 {
			if !req.RpcRequestData.IsNoReply() {
				agent.WriteResponse(req.RpcRequestData.GetServiceMethod(), req.RpcRequestData.GetSeq(), "rpc request req.ServiceMethod is error")
			}
			ReleaseRpcRequest(req)
			log.Print("rpc request req.ServiceMethod is error")
			continue
		}

		rpcHandler, ok := agent.handlers[serviceMethod[0]]
		if !ok {
			rpcError := fmt.Sprintf("service method %s not config!", req.RpcRequestData.GetServiceMethod())
			if !req.RpcRequestData.IsNoReply() {
				agent.WriteResponse(req.RpcRequestData.GetServiceMethod(), req.RpcRequestData.GetSeq(), rpcError)
			}

			log.Printf("service method %s not config!", req.RpcRequestData.GetServiceMethod())
			ReleaseRpcRequest(req)
			continue
		}

		rpcHandler(req)
		ReleaseRpcRequest(req)
	}
}
