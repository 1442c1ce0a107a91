// Source: https://github.com/Tochemey/goakt/commit/947c19c518db381807befbeefba2e04c790ea748
// ("fix: fix wrong context pooling mechanism").
//
// Fixed twin: the embedded noCancelContext is gone; build and withoutCancel
// use context.WithoutCancel(ctx), which returns a fresh wrapper that does
// not share memory with the pooled ReceiveContext, so nothing handed to the
// recipient points into an object that releaseContext puts back.
//
// Check: useafterput (reported in the bug twin at `return &rctx.detached`;
// nothing to report here)
package fixed

import (
	"context"
	"sync"
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
	ctx     context.Context
	message any
	sender  *PID
	self    *PID
	err     error
}

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
		rctx.ctx = context.WithoutCancel(ctx)
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
}

func (rctx *ReceiveContext) withoutCancel() context.Context {
	if rctx.ctx == nil {
		return context.Background()
	}

	if rctx.ctx.Done() == nil {
		return rctx.ctx
	}

	return context.WithoutCancel(rctx.ctx)
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
