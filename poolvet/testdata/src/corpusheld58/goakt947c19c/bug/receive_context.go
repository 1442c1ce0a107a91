// Source: https://github.com/Tochemey/goakt/commit/947c19c518db381807befbeefba2e04c790ea748
// ("fix: fix wrong context pooling mechanism").
//
// Bug: ReceiveContext values come from a sync.Pool (getContext /
// releaseContext). To give outgoing messages a context without
// cancellation, withoutCancel stored the current ctx in the embedded
// rctx.detached field and returned &rctx.detached, a pointer into the pooled
// ReceiveContext. That pointer is handed to PID.Tell, whose async build
// stores it in the recipient's ReceiveContext, which lives on in another
// actor's mailbox. When the sender's process loop releases its context,
// reset sets detached.Context = nil and the object goes back to the pool, so
// the recipient's context chain points into a recycled (nil-ed, later
// reused) object.
// Fix: drop the embedded noCancelContext and use
// context.WithoutCancel(ctx), which allocates a fresh wrapper that does not
// share memory with the pooled ReceiveContext.
//
// Check: useafterput (at `return &rctx.detached` in withoutCancel: memory of
// the pooled ReceiveContext escapes to the recipient and outlives
// releaseContext's Put)
package bug

import (
	"context"
	"sync"
	"time"
)

// pool holds a pool of ReceiveContext
var pool = sync.Pool{
	New: func() any {
		return new(ReceiveContext)
	},
}

// getContext retrieves a message from the pool
func getContext() *ReceiveContext {
	return pool.Get().(*ReceiveContext)
}

// releaseContext sends the message context back to the pool
func releaseContext(receiveContext *ReceiveContext) {
	receiveContext.reset()
	pool.Put(receiveContext)
}

type ReceiveContext struct {
	ctx      context.Context
	detached noCancelContext
	message  any
	sender   *PID
	self     *PID
	err      error
}

type noCancelContext struct {
	context.Context
}

func (n *noCancelContext) Deadline() (time.Time, bool) { return time.Time{}, false }

func (n *noCancelContext) Done() <-chan struct{} { return nil }

func (n *noCancelContext) Err() error { return nil }

func (rctx *ReceiveContext) Context() context.Context { return rctx.ctx }

func (rctx *ReceiveContext) Message() any { return rctx.message }

// Tell sends an asynchronous message to another PID
func (rctx *ReceiveContext) Tell(to *PID, message any) {
	recipient := rctx.self
	ctx := rctx.withoutCancel()
	if err := recipient.Tell(ctx, to, message); err != nil {
		rctx.err = err
	}
}

// build sets the necessary fields of ReceiveContext
func (rctx *ReceiveContext) build(ctx context.Context, from, to *PID, message any, async bool) *ReceiveContext {
	rctx.sender = from
	rctx.self = to
	rctx.message = message

	if async {
		rctx.detached.Context = ctx
		rctx.ctx = &rctx.detached
		return rctx
	}

	rctx.ctx = ctx
	return rctx
}

// reset resets the fields of ReceiveContext
func (rctx *ReceiveContext) reset() {
	var pid *PID
	rctx.message = nil
	rctx.self = pid
	rctx.sender = pid
	rctx.err = nil
	rctx.ctx = nil
	rctx.detached.Context = nil
}

func (rctx *ReceiveContext) withoutCancel() context.Context {
	if rctx.ctx == nil {
		return context.Background()
	}

	if _, ok := rctx.ctx.(*noCancelContext); ok {
		return rctx.ctx
	}

	rctx.detached.Context = rctx.ctx
	return &rctx.detached // want `useafterput`
}

type PID struct {
	mailbox chan *ReceiveContext
	handle  func(*ReceiveContext)
}

// Tell sends an asynchronous message to another PID
func (pid *PID) Tell(ctx context.Context, to *PID, message any) error {
	receiveContext := getContext()
	receiveContext.build(ctx, pid, to, message, true)
	to.doReceive(receiveContext)
	return nil
}

func (pid *PID) doReceive(receiveCtx *ReceiveContext) {
	pid.mailbox <- receiveCtx
}

// process extracts every message from the actor mailbox
// and pass it to the appropriate behavior for handling
func (pid *PID) process() {
	go func() {
		var received *ReceiveContext
		for {
			if received != nil {
				releaseContext(received)
			}
			received = <-pid.mailbox
			if received == nil {
				return
			}
			pid.handle(received)
		}
	}()
}
