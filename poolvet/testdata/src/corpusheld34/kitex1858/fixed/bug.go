// Package bug reproduces the shape of cloudwego/kitex#1858
// (https://github.com/cloudwego/kitex/pull/1858): the client RPC-timeout
// task kept *time.Timer values in a sync.Pool. Wait took a timer, tried to
// stop and drain it, re-armed it with the remaining deadline and returned it
// to the pool with a deferred Put. When the call finished (or the parent
// context ended) before the deadline, the timer was still armed when it went
// back, so the next Wait could pick up a timer whose old expiry fires into C
// after the Stop/drain dance and cancel an unrelated call early. The fix
// dropped the pool and uses a fresh timer that is stopped on return.
//
// Check: noreset (the deferred Put hands back a timer that still holds its
// pending expiry from this call).
package bug

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

var errDeadline = errors.New("rpc timeout")

type timeoutContext struct {
	context.Context // parent
	done            chan struct{}
	once            sync.Once
	deadline        time.Time
	err             atomic.Value
}

func newTimeoutContext(parent context.Context, d time.Duration) *timeoutContext {
	return &timeoutContext{Context: parent, done: make(chan struct{}), deadline: time.Now().Add(d)}
}

func (c *timeoutContext) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *timeoutContext) Done() <-chan struct{}       { return c.done }

func (c *timeoutContext) Err() error {
	if v := c.err.Load(); v != nil {
		return v.(error)
	}
	return nil
}

func (c *timeoutContext) Cancel(err error) {
	c.once.Do(func() {
		c.err.Store(err)
		close(c.done)
	})
}

type timeoutTask struct {
	ctx *timeoutContext
	wg  sync.WaitGroup
	err atomic.Value
}

func newTimeoutTask(parent context.Context, d time.Duration) *timeoutTask {
	t := &timeoutTask{ctx: newTimeoutContext(parent, d)}
	t.wg.Add(1)
	return t
}

func (t *timeoutTask) Cancel(err error) { t.ctx.Cancel(err) }

// Wait waits for the call to finish or for its deadline.
func (t *timeoutTask) Wait() (context.Context, error) {
	defer t.wg.Done()
	dl, _ := t.ctx.Deadline()
	d := time.Until(dl)
	if d < 0 {
		t.Cancel(errDeadline)
		return t.ctx, t.ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-t.ctx.Done(): // the call finished before the deadline
		if v := t.err.Load(); v != nil {
			return t.ctx, v.(error)
		}
		return t.ctx, nil
	case <-t.ctx.Context.Done(): // parent ended
		t.Cancel(t.ctx.Context.Err())
	case <-tm.C: // deadline
		t.Cancel(errDeadline)
	}
	return t.ctx, t.ctx.Err()
}
