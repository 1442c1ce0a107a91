package useafterput

import "sync"

type tsoReq struct {
	done     chan error
	physical int64
}

var tsoReqPool = sync.Pool{New: func() any { return &tsoReq{done: make(chan error, 1)} }}

type tsoClient struct{ reqs chan *tsoReq }

// The request is sent to a worker, and the callee that puts it back
// receives the worker's answer first: the hand-off is ordered before the
// Put (tikv/pd#660). Not reported.
func (c *tsoClient) getTS() (int64, error) {
	req := tsoReqPool.Get().(*tsoReq)
	req.physical = 0
	c.reqs <- req
	return c.waitTS(req)
}

func (c *tsoClient) waitTS(req *tsoReq) (int64, error) {
	defer tsoReqPool.Put(req)
	if err := <-req.done; err != nil {
		return 0, err
	}
	return req.physical, nil
}

// A callee that puts without waiting for the worker races with it.
func (c *tsoClient) getTSRacy() {
	req := tsoReqPool.Get().(*tsoReq)
	c.reqs <- req
	c.releaseTS(req) // want `req is put back into the pool while the receiver of the channel send at line 35 may still use it`
}

func (c *tsoClient) releaseTS(req *tsoReq) {
	req.physical = 0
	tsoReqPool.Put(req)
}
