// Source: https://github.com/valyala/gorpc/commit/2bd442a4dd7b4290dc924e0624398a2cacc2f087
// ("fixed data race on AsyncResult.t introduced at 3e53ba9400d1d6364816bbea186334f864f3891d").
//
// Bug: commit 3e53ba9 started pooling AsyncResult structs
// (acquireAsyncResult/releaseAsyncResult over a sync.Pool). Client.CallTimeout
// waits on m.Done and then calls releaseAsyncResult(m), which clears m.t and
// puts m back into asyncResultPool. clientReader closes m.done first and only
// then reads m.t to update the RPC time stats, so m may already be back in the
// pool (and reused by another call) when clientReader reads m.t.
//
// Fix: update the stats (which read m.t) before close(m.done), i.e. before
// handing m back to the caller that releases it.
//
// Check: useafterput (time.Since(m.t) after close(m.done) let CallTimeout put
// m back into asyncResultPool)
package fixed

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// AsyncResult is a result returned from Client.CallAsync().
type AsyncResult struct {
	// The response can be read only after <-Done unblocks.
	Response interface{}

	// The error can be read only after <-Done unblocks.
	Error error

	// Response and Error become available after <-Done unblocks.
	Done <-chan struct{}

	request  interface{}
	t        time.Time
	done     chan struct{}
	canceled uint32
}

func (m *AsyncResult) Cancel() {
	atomic.StoreUint32(&m.canceled, 1)
}

func acquireAsyncResult() *AsyncResult {
	v := asyncResultPool.Get()
	if v == nil {
		return &AsyncResult{}
	}
	return v.(*AsyncResult)
}

var zeroTime time.Time

func releaseAsyncResult(m *AsyncResult) {
	m.Response = nil
	m.Error = nil
	m.Done = nil
	m.request = nil
	m.t = zeroTime
	m.done = nil
	asyncResultPool.Put(m)
}

var asyncResultPool sync.Pool

type ConnStats struct {
	RPCCalls uint64
	RPCTime  uint64
}

func (cs *ConnStats) incRPCCalls()         { atomic.AddUint64(&cs.RPCCalls, 1) }
func (cs *ConnStats) incRPCTime(dt uint64) { atomic.AddUint64(&cs.RPCTime, dt) }

type Client struct {
	Addr         string
	Stats        ConnStats
	requestsChan chan *AsyncResult
}

type wireResponse struct {
	ID       uint64
	Response interface{}
	Error    string
}

func (c *Client) CallTimeout(request interface{}, timeout time.Duration) (response interface{}, err error) {
	var m *AsyncResult
	if m, err = c.callAsync(request); err != nil {
		return nil, err
	}

	t := time.NewTimer(timeout)

	select {
	case <-m.Done:
		response, err = m.Response, m.Error
		releaseAsyncResult(m)
	case <-t.C:
		m.Cancel()
		err = fmt.Errorf("gorpc.Client: [%s]. Cannot obtain response during timeout=%s", c.Addr, timeout)
	}

	t.Stop()
	return
}

func (c *Client) callAsync(request interface{}) (m *AsyncResult, err error) {
	m = acquireAsyncResult()
	m.request = request
	m.t = time.Now()
	m.done = make(chan struct{})
	m.Done = m.done

	select {
	case c.requestsChan <- m:
		return m, nil
	default:
		// Release m, since it wasn't exposed to the caller yet.
		releaseAsyncResult(m)
		return nil, fmt.Errorf("gorpc.Client: [%s]. Requests' queue is overflown", c.Addr)
	}
}

func clientReader(c *Client, responses <-chan wireResponse, pendingRequests map[uint64]*AsyncResult, pendingRequestsLock *sync.Mutex) error {
	for wr := range responses {
		pendingRequestsLock.Lock()
		m, ok := pendingRequests[wr.ID]
		if ok {
			delete(pendingRequests, wr.ID)
		}
		pendingRequestsLock.Unlock()

		if !ok {
			return fmt.Errorf("gorpc.Client: [%s]. Unexpected msgID=[%d] obtained from server", c.Addr, wr.ID)
		}

		m.Response = wr.Response
		if wr.Error != "" {
			m.Error = fmt.Errorf("gorpc.Client: [%s]. Server error: [%s]", c.Addr, wr.Error)
		}

		c.Stats.incRPCCalls()
		c.Stats.incRPCTime(uint64(time.Since(m.t).Seconds() * 1000))

		close(m.done)
	}
	return nil
}
