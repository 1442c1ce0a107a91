// Source: https://github.com/roadrunner-server/grpc/commit/87679e4def7a1827f86d4931347c91921dcc1c76
// ("fix(grpc): prevent Stop panic on failed pool init; restore payload reset"),
// part of https://github.com/roadrunner-server/grpc/pull/147; the bug was
// introduced by e61c4c2 ("chore: simplify, modernize") in the same PR and
// caught in review.
//
// Bug: Proxy.invoke leases a *payload.Payload from p.pldPool and
// makePayload points pld.Body at the request's raw gRPC message and
// pld.Context at a freshly marshalled JSON buffer. putPld "reset" them with
// pld.Body = pld.Body[:0] / pld.Context = pld.Context[:0] before the Put: as
// the commit says, that never reuses the preallocated slices (makePayload
// always reassigns them) and "would pin the request's backing arrays in the
// pooled object", keeping every request body alive while the payload sits in
// the pool.
//
// Fix: putPld sets Body and Context to nil before p.pldPool.Put(pld).
//
// Check: noreset (the Put in putPld returns the payload still referencing the
// last request's body and context).
package bug

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
)

const codecJSON byte = 0x08

const streamFlag byte = 0x10

// Payload stands in for github.com/roadrunner-server/pool/payload.Payload.
type Payload struct {
	Codec   byte
	Flags   byte
	Context []byte
	Body    []byte
}

// RawMessage stands in for the plugin's codec.RawMessage.
type RawMessage []byte

// PExec is the worker pool's response.
type PExec struct {
	pld *Payload
	err error
}

func (p *PExec) Payload() *Payload { return p.pld }
func (p *PExec) Error() error      { return p.err }

// Pool is the trimmed worker pool interface.
type Pool interface {
	Exec(ctx context.Context, p *Payload, stopCh chan struct{}) (chan *PExec, error)
}

type mdKey struct{}

type rpcContext struct {
	Service string              `json:"service"`
	Method  string              `json:"method"`
	Context map[string][]string `json:"context"`
}

// Proxy manages GRPC/RoadRunner bridge.
type Proxy struct {
	mu       *sync.RWMutex
	grpcPool Pool
	name     string
	metadata string
	methods  []string

	pldPool sync.Pool
}

// NewProxy creates a new service proxy object.
func NewProxy(name string, metadata string, grpcPool Pool, mu *sync.RWMutex) *Proxy {
	return &Proxy{
		mu:       mu,
		grpcPool: grpcPool,
		name:     name,
		metadata: metadata,
		methods:  make([]string, 0),
		pldPool: sync.Pool{
			New: func() any {
				return &Payload{
					Codec:   codecJSON,
					Context: make([]byte, 0, 100),
					Body:    make([]byte, 0, 100),
				}
			},
		},
	}
}

func (p *Proxy) invoke(ctx context.Context, method string, in *RawMessage) (any, error) {
	pld := p.getPld()
	defer p.putPld(pld)

	err := p.makePayload(ctx, method, in, pld)
	if err != nil {
		return nil, err
	}

	p.mu.RLock()
	re, err := p.grpcPool.Exec(ctx, pld, nil)
	p.mu.RUnlock()
	if err != nil {
		return nil, err
	}

	var r *Payload

	select {
	case pl := <-re:
		if pl.Error() != nil {
			return nil, pl.Error()
		}
		// streaming is not supported
		if pl.Payload().Flags&streamFlag != 0 {
			return nil, errors.New("streaming is not supported")
		}

		// assign the payload
		r = pl.Payload()
	default:
		return nil, errors.New("worker empty response")
	}

	return RawMessage(r.Body), nil
}

// makePayload generates a RoadRunner compatible payload based on a GRPC message.
func (p *Proxy) makePayload(ctx context.Context, method string, body *RawMessage, pld *Payload) error {
	ctxMD := make(map[string][]string)

	if md, ok := ctx.Value(mdKey{}).(map[string][]string); ok {
		for k, v := range md {
			ctxMD[k] = v
		}
	}

	ctxData, err := json.Marshal(rpcContext{Service: p.name, Method: method, Context: ctxMD})

	if err != nil {
		return err
	}

	pld.Body = *body
	pld.Context = ctxData

	return nil
}

func (p *Proxy) putPld(pld *Payload) {
	pld.Body = pld.Body[:0]
	pld.Context = pld.Context[:0]
	p.pldPool.Put(pld) // want `noreset`
}

func (p *Proxy) getPld() *Payload {
	pld := p.pldPool.Get().(*Payload)
	pld.Codec = codecJSON
	return pld
}
