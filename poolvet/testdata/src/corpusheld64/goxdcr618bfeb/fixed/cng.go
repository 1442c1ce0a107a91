// Source: https://github.com/couchbase/goxdcr/commit/618bfeb4e3c947e3538100577d510c015623c5d0
// ("MB-70621: Avoid wmc recycling when upstream errors are reported"), with
// the condition as corrected in
// https://github.com/couchbase/goxdcr/commit/facb8cbbab7675f2b3ac063d3364924f11162ca2
// (MB-69708).
//
// Bug: the CNG outgoing nozzle's worker takes a *WrappedMCRequest ("wmc")
// off its data channel, processes it with retries and then always hands it
// to RecycleDataObj, which returns it to the router's mcRequestPool. When
// processing fails with an upstream-reportable (collection) error,
// raiseUpstreamErr calls the upstream error reporter registered by the
// router, CollectionsRouter.recordUnroutableRequest, which ends in the
// router's ignoreRequestFunc and recycles the same request into the pool.
// The worker then recycles it a second time, so the pool holds the request
// twice and two later users share it.
//
// Fix: raiseUpstreamErr reports whether it raised the error;
// processReqWithRetry returns dontRecycle = true in that case and the
// worker skips RecycleDataObj ("it gets already recycled in upstream error
// callback").
//
// Check: doubleput (the request is recycled by the upstream error callback
// inside processReqWithRetry and again by the worker's RecycleDataObj call)
package fixed

import (
	"errors"
	"sync"
	"time"
)

// ---- base ----

type CollectionNamespace struct{ ScopeName, CollectionName string }

type WrappedMCRequest struct {
	Seqno                      uint64
	SourceVB                   uint16
	Key                        []byte
	Body                       []byte
	SrcColNamespace            *CollectionNamespace
	Cloned                     bool
	SlicesToBeReleasedByRouter [][]byte
	SlicesToBeReleasedMtx      sync.Mutex
}

func (req *WrappedMCRequest) GetSourceVB() uint16 { return req.SourceVB }

type MCRequestPool struct {
	name string
	pool *sync.Pool
}

func NewMCRequestPool(name string) *MCRequestPool {
	return &MCRequestPool{
		name: name,
		pool: &sync.Pool{New: func() interface{} { return &WrappedMCRequest{} }},
	}
}

func (p *MCRequestPool) Get() *WrappedMCRequest {
	return p.pool.Get().(*WrappedMCRequest)
}

func (p *MCRequestPool) Put(req *WrappedMCRequest) {
	req.Seqno = 0
	req.Key = req.Key[:0]
	req.Body = req.Body[:0]
	req.SrcColNamespace = nil
	req.Cloned = false
	p.pool.Put(req)
}

// ---- parts/router.go ----

type Router struct {
	mcRequestPool *MCRequestPool
	raised        []uint64
}

func (router *Router) recycleDataObj(obj interface{}) {
	switch obj.(type) {
	case *WrappedMCRequest:
		if router.mcRequestPool != nil {
			req := obj.(*WrappedMCRequest)
			req.SlicesToBeReleasedMtx.Lock()
			req.SlicesToBeReleasedByRouter = nil
			req.SlicesToBeReleasedMtx.Unlock()
			router.mcRequestPool.Put(req)
		}
	}
}

func (router *Router) newCollectionsRouter() *CollectionsRouter {
	ignoreRequestFunc := func(req *WrappedMCRequest) {
		router.raised = append(router.raised, req.Seqno)
		router.recycleDataObj(req)
	}
	return &CollectionsRouter{running: true, ignoreDataFunc: ignoreRequestFunc,
		brokenMapping: map[CollectionNamespace]bool{}}
}

type CollectionsRouter struct {
	mtx            sync.Mutex
	running        bool
	implicit       bool
	brokenMapping  map[CollectionNamespace]bool
	ignoreDataFunc func(*WrappedMCRequest)
}

// recordUnroutableRequest is the upstream error reporter the router gives
// to its outgoing nozzles.
func (c *CollectionsRouter) recordUnroutableRequest(req interface{}) {
	wrappedMcr, ok := req.(*WrappedMCRequest)
	if !ok {
		panic("coding bug")
	}
	if !c.running {
		return
	}
	sourceNamespace := &CollectionNamespace{}
	*sourceNamespace = *wrappedMcr.SrcColNamespace
	if !c.implicit {
		// Source namespace is not replicated: ignore the data.
		c.ignoreDataFunc(wrappedMcr)
		return
	}
	c.updateBrokenMappingAndRaiseNecessaryEvents(wrappedMcr, sourceNamespace, true)
}

// When "shouldIgnore" is true, the wrappedMCR is recycled
func (c *CollectionsRouter) updateBrokenMappingAndRaiseNecessaryEvents(wrappedMcr *WrappedMCRequest, ns *CollectionNamespace, shouldIgnore bool) {
	c.mtx.Lock()
	c.brokenMapping[*ns] = true
	c.mtx.Unlock()
	if shouldIgnore {
		c.ignoreDataFunc(wrappedMcr)
	}
}

// ---- parts/cng ----

var ErrCollectionNotFound = errors.New("collection not found")

const ProcessRetryInterval = 10 * time.Millisecond

type Nozzle struct {
	dataCh                 chan *WrappedMCRequest
	stopCh                 chan bool
	upstreamErrReporterMap map[uint16]func(any)
	upstreamObjRecycler    func(any)
	processReq             func(*WrappedMCRequest) error
}

func (n *Nozzle) RecycleDataObj(obj any) {
	// recycler should never be nil
	if n.upstreamObjRecycler == nil {
		panic("upstreamObjRecycler is nil")
	}
	n.upstreamObjRecycler(obj)
}

func (n *Nozzle) SetUpstreamErrReporter(reporter func(any), responsibleVbs []uint16) {
	for _, vb := range responsibleVbs {
		n.upstreamErrReporterMap[vb] = reporter
	}
}

func (n *Nozzle) worker() {
	for {
		select {
		case <-n.stopCh:
			return
		case req := <-n.dataCh:
			dontRecycle := n.processReqWithRetry(req)
			if !dontRecycle {
				n.RecycleDataObj(req)
			}
		}
	}
}

// The function returns a boolean indicating whether the request should not be recycled
func (n *Nozzle) processReqWithRetry(req *WrappedMCRequest) (dontRecycle bool) {
	var err error
	for {
		select {
		case <-n.stopCh:
			return
		default:
			err = n.processReq(req)

			// Don't mark for recycling of req as it gets already recycled
			// in upstream error callback.
			if n.raiseUpstreamErr(req, err) {
				dontRecycle = true
			}
			if err == nil {
				return
			}

			if !isMutationRetryable(err) {
				return
			}

			time.Sleep(ProcessRetryInterval)
		}
	}
}

// raiseUpstreamErr raises errors back to upstream if applicable
// returns true if upstream error was raised
func (n *Nozzle) raiseUpstreamErr(req *WrappedMCRequest, err error) (raised bool) {
	if err == nil {
		return
	}

	if !isErrorUpstreamReportable(err) {
		return
	}

	vbno := req.GetSourceVB()
	reportFn, exists := n.upstreamErrReporterMap[vbno]
	if !exists {
		return
	}

	raised = true
	reportFn(req)
	return
}

func isErrorUpstreamReportable(err error) bool { return errors.Is(err, ErrCollectionNotFound) }

func isMutationRetryable(err error) bool { return !errors.Is(err, ErrCollectionNotFound) }

func Start(router *Router, n *Nozzle, vbs []uint16) {
	colRouter := router.newCollectionsRouter()
	n.upstreamObjRecycler = router.recycleDataObj
	n.SetUpstreamErrReporter(colRouter.recordUnroutableRequest, vbs)
	go n.worker()
}
