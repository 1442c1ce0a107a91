// Package fixed is the fixed twin of corpusheld13/fasthttp1433: the work
// item is released only on the paths where the worker is known to be done
// with it (or never got it); on the timeout after the hand-off it is left
// to the garbage collector.
package fixed

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
	w.req = req

	timer := time.NewTimer(timeout)
	defer timer.Stop()

	select {
	case c.chW <- w:
	case <-timer.C:
		c.releaseWork(w)
		return nil, ErrTimeout
	}

	select {
	case <-w.done:
		resp, err := append([]byte(nil), w.resp...), w.err
		c.releaseWork(w)
		return resp, err
	case <-timer.C:
		// the worker still owns w: do not put it back
		return nil, ErrTimeout
	}
}
