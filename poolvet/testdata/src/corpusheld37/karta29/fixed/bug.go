// Package bug reproduces the shape of shengyanli1982/karta#29 (commit 9e0fa00,
// https://github.com/shengyanli1982/karta/pull/29,
// https://github.com/shengyanli1982/karta/commit/9e0fa007c4f7ec8cf4ab2980c3ff4f2b68d297ed,
// "fix lease re-delivery handing the same *TaskEnvelope to two executors ...
// eliminating double pool puts"): task envelopes come from a sync.Pool and the
// pipeline keys its pending futures by envelope pointer. A lease scheduler can
// hand the same envelope to a second executor after the lease expires. The
// executor that finds no pending future (the first executor already took it)
// still returned the envelope to the pool, although the executor that owns the
// future returns it as well. Fixed twin: the no-future branch only acks the
// scheduler; the envelope is returned exactly once, by the owner of the future.
// Check: doubleput (none expected here).
package bug

import (
	"context"
	"sync"
	"time"
)

type TaskEnvelope struct {
	Input     any
	Handler   any
	UserCtx   context.Context
	Delay     time.Duration
	CreatedAt time.Time
	id        uint64
}

var envelopePool = sync.Pool{
	New: func() any {
		return &TaskEnvelope{}
	},
}

func getEnvelope() *TaskEnvelope {
	return envelopePool.Get().(*TaskEnvelope)
}

// putEnvelope clears the fields and recycles the envelope.
func putEnvelope(e *TaskEnvelope) {
	e.Input = nil
	e.Handler = nil
	e.UserCtx = nil
	e.Delay = 0
	e.CreatedAt = time.Time{}
	e.id = 0
	envelopePool.Put(e)
}

// Scheduler may deliver the same envelope again when its lease expires.
type Scheduler interface {
	Enqueue(task *TaskEnvelope) error
	Dequeue(ctx context.Context) (*TaskEnvelope, error)
	Done(task *TaskEnvelope)
}

type Result[Out any] struct {
	Value Out
	Err   error
}

type Future[Out any] struct {
	ch chan Result[Out]
}

func (f *Future[Out]) Resolve(r Result[Out]) { f.ch <- r }

type Pipeline[In, Out any] struct {
	handler   func(context.Context, In) (Out, error)
	scheduler Scheduler
	ctx       context.Context
	pendingMu sync.Mutex
	pending   map[*TaskEnvelope]*Future[Out]
}

func (p *Pipeline[In, Out]) Submit(ctx context.Context, input In) (*Future[Out], error) {
	future := &Future[Out]{ch: make(chan Result[Out], 1)}
	envelope := getEnvelope()
	envelope.Input = input
	envelope.UserCtx = ctx
	envelope.CreatedAt = time.Now()

	p.pendingMu.Lock()
	p.pending[envelope] = future
	p.pendingMu.Unlock()
	if err := p.scheduler.Enqueue(envelope); err != nil {
		p.pendingMu.Lock()
		delete(p.pending, envelope)
		p.pendingMu.Unlock()
		putEnvelope(envelope)
		return nil, err
	}
	return future, nil
}

func (p *Pipeline[In, Out]) loadAndDeletePending(envelope *TaskEnvelope) *Future[Out] {
	p.pendingMu.Lock()
	defer p.pendingMu.Unlock()
	future, ok := p.pending[envelope]
	if !ok {
		return nil
	}
	delete(p.pending, envelope)
	return future
}

func (p *Pipeline[In, Out]) executor() {
	for {
		envelope, err := p.scheduler.Dequeue(p.ctx)
		if err != nil {
			return
		}

		future := p.loadAndDeletePending(envelope)
		if future == nil {
			// future already claimed (lease re-delivery) or cleaned up:
			// release the lease only; the owner of the future recycles it.
			p.scheduler.Done(envelope)
			continue
		}

		val, err := p.handler(p.ctx, envelope.Input.(In))
		future.Resolve(Result[Out]{Value: val, Err: err})
		p.scheduler.Done(envelope)
		putEnvelope(envelope)
	}
}
