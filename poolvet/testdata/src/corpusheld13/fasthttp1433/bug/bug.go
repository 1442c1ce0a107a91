// Package bug reproduces the shape of valyala/fasthttp#1433
// (https://github.com/valyala/fasthttp/pull/1433), review of
// pipelineConnClient.DoDeadline: the PR added a deferred release of the
// pipeline work item, but on the timeout path the item has already been
// handed to the writer goroutine, which may still fill it in after the
// caller released it to the pool. The reviewer caught it and the defer was
// reverted.
//
// Check: useafterput (hand-off: the pooled work item is sent to a worker
// on a channel and the function can return on a timer while a deferred Put
// returns the item to the pool). Per docs/poolvet.md, with a deferred Put
// the report is at the hand-off.
package bug

import (
	"errors"
	"sync"
	"time"
)

var ErrTimeout = errors.New("timeout")

type pipelineWork struct {
	req  []byte
	resp []byte
	err  error
	done chan struct{}
}

type pipelineConnClient struct {
	workPool sync.Pool
	chW      chan *pipelineWork
}

func (c *pipelineConnClient) acquireWork() *pipelineWork {
	v := c.workPool.Get()
	if v == nil {
		return &pipelineWork{done: make(chan struct{}, 1)}
	}
	return v.(*pipelineWork)
}

func (c *pipelineConnClient) releaseWork(w *pipelineWork) {
	w.req = nil
	w.resp = nil
	w.err = nil
	c.workPool.Put(w)
}

// worker fills the response of each work item and signals done.
func (c *pipelineConnClient) worker() {
	for w := range c.chW {
		w.resp = append(w.resp[:0], w.req...)
		w.done <- struct{}{}
	}
}

func (c *pipelineConnClient) DoDeadline(req []byte, timeout time.Duration) ([]byte, error) {
	w := c.acquireWork()
	defer c.releaseWork(w)
	w.req = req

	timer := time.NewTimer(timeout)
	defer timer.Stop()

	select {
	case c.chW <- w: // want `useafterput`
	case <-timer.C:
		return nil, ErrTimeout
	}

	select {
	case <-w.done:
		return append([]byte(nil), w.resp...), w.err
	case <-timer.C:
		// the worker still owns w here
		return nil, ErrTimeout
	}
}
