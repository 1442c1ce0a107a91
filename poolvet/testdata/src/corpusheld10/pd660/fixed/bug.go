// Package fixed is tikv/pd#660 fixed: the start time is read into a local
// before anything is deferred, so the latency closure no longer touches the
// pooled request after it went back to the pool.
package fixed

import (
	"sync"
	"time"
)

type tsoRequest struct {
	start    time.Time
	done     chan error
	physical int64
	logical  int64
}

var tsoReqPool = sync.Pool{New: func() any {
	return &tsoRequest{done: make(chan error, 1)}
}}

type client struct {
	tsoRequests chan *tsoRequest
	observe     func(time.Duration)
}

func (c *client) GetTS() (int64, int64, error) {
	req := tsoReqPool.Get().(*tsoRequest)
	req.start = time.Now()
	req.physical, req.logical = 0, 0
	c.tsoRequests <- req
	return c.wait(req)
}

func (c *client) wait(req *tsoRequest) (int64, int64, error) {
	start := req.start
	defer func() { c.observe(time.Since(start)) }()
	defer tsoReqPool.Put(req)
	if err := <-req.done; err != nil {
		return 0, 0, err
	}
	return req.physical, req.logical, nil
}
