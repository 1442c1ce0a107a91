// Package bug reproduces the shape of tikv/pd#660
// (https://github.com/tikv/pd/pull/660): the PD client took TSO requests
// from a sync.Pool; a deferred function that records the request latency
// read req.start, but it was registered before the deferred Put, so it ran
// after the request had gone back to the pool. Another goroutine could
// already have taken the request and reset req.start (a data race, and a
// wrong latency).
//
// Check: useafterput (a deferred closure registered before a deferred Put
// runs after it; per docs/poolvet.md the report is at that first defer).
package bug

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
	defer func() { c.observe(time.Since(req.start)) }() // want `useafterput`
	defer tsoReqPool.Put(req)
	if err := <-req.done; err != nil {
		return 0, 0, err
	}
	return req.physical, req.logical, nil
}
