// Source: https://github.com/lni/dragonboat/commit/cb8987d82fe75bd474d2c1654477a766ca8f0e31
// ("dragonboat: fixed how RequestState is recycled", requests.go)
//
// Bug: NodeHost keeps RequestState objects in sync.Pools (createPools); the
// same pools serve proposals (proposalShard.propose) and ReadIndex requests
// (pendingReadIndex.read). With NotifyCommit enabled, the pooled objects
// carry a committedC channel, and ResultC() decides whether the request runs
// in notify-commit mode by looking at committedC != nil. Release() reset the
// key, deadline, session fields, ready flags and aggrC before r.pool.Put(r),
// but not the notify-commit state (committedC, and any stale "committed"
// value left in it by the previous proposal), and read() took the object out
// of the pool without clearing it either. A ReadIndex request that received
// an object last used by a proposal therefore behaved as a notify-commit
// request and could see the previous user's committed notification.
// notify() also marked the object ready to release before its result was
// delivered.
//
// Fix: RequestState gets an explicit notifyCommit flag that Release() resets
// before putting the object back, that read() clears and that propose() sets
// from the shard (re-creating committedC when it is nil); ResultC() and
// committed() use the flag; notify() sets readyToRelease only after the
// result was delivered, and Release() of a not-yet-notified object is
// ignored instead of panicking.
//
// Check: noreset (r.pool.Put(r) in Release puts the RequestState back without
// resetting its notify-commit state, which the next user taken from the same
// pool, e.g. a ReadIndex request, sees)
package fixed

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

type logger struct{}

func (logger) Panicf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

var plog logger

var (
	ErrTimeoutTooSmall = errors.New("specified timeout is too small")
	ErrClusterClosed   = errors.New("raft cluster already closed")
	ErrSystemBusy      = errors.New("system is too busy try again later")
)

// RequestResultCode is the result code returned to the client to indicate the
// outcome of the request.
type RequestResultCode int

const (
	requestTimeout RequestResultCode = iota
	requestCompleted
	requestTerminated
	requestRejected
	requestDropped
	requestAborted
	requestCommitted
)

// RequestResult is the result struct returned for the request.
type RequestResult struct {
	code  RequestResultCode
	value uint64
}

func (rr *RequestResult) Timeout() bool    { return rr.code == requestTimeout }
func (rr *RequestResult) Completed() bool  { return rr.code == requestCompleted }
func (rr *RequestResult) Terminated() bool { return rr.code == requestTerminated }

type ready struct {
	val uint32
}

func (r *ready) ready() bool { return atomic.LoadUint32(&r.val) == 1 }
func (r *ready) clear()      { atomic.StoreUint32(&r.val, 0) }
func (r *ready) set()        { atomic.StoreUint32(&r.val, 1) }

type node struct{}

// RequestState is the object used to provide request result to users.
type RequestState struct {
	key            uint64
	clientID       uint64
	seriesID       uint64
	respondedTo    uint64
	deadline       uint64
	readyToRead    ready
	readyToRelease ready
	aggrC          chan RequestResult
	committedC     chan RequestResult
	CompletedC     chan RequestResult
	node           *node
	pool           *sync.Pool
	notifyCommit   bool
}

// AppliedC returns a channel of RequestResult for delivering request result.
func (r *RequestState) AppliedC() chan RequestResult {
	return r.CompletedC
}

// ResultC returns a channel of RequestResult for delivering request results to
// users. When NotifyCommit is enabled, up to two RequestResult values can be
// received from the returned channel.
func (r *RequestState) ResultC() chan RequestResult {
	if !r.notifyCommit {
		return r.CompletedC
	}
	if r.committedC == nil {
		plog.Panicf("committedC is nil")
	}
	if r.aggrC != nil {
		return r.aggrC
	}
	r.aggrC = make(chan RequestResult, 2)
	go func() {
		select {
		case cn := <-r.committedC:
			if cn.code != requestCommitted {
				plog.Panicf("unknown code, %d", cn.code)
			}
			r.aggrC <- cn
			cc := <-r.CompletedC
			r.aggrC <- cc
		case cc := <-r.CompletedC:
			if cc.Completed() || cc.Terminated() || cc.Timeout() {
				select {
				case ccn := <-r.committedC:
					r.aggrC <- ccn
				default:
				}
				r.aggrC <- cc
			}
		}
	}()
	return r.aggrC
}

func (r *RequestState) committed() {
	if !r.notifyCommit {
		plog.Panicf("notify commit not enabled")
	}
	if r.committedC == nil {
		plog.Panicf("committedC is nil")
	}
	select {
	case r.committedC <- RequestResult{code: requestCommitted}:
	default:
		plog.Panicf("RequestState.committedC is full")
	}
}

func (r *RequestState) notify(result RequestResult) {
	select {
	case r.CompletedC <- result:
		r.readyToRelease.set()
	default:
		plog.Panicf("RequestState.CompletedC is full")
	}
}

// Release puts the RequestState instance back to an internal pool so it can be
// reused. Release is normally called after all RequestResult values have been
// received from the ResultC() channel.
func (r *RequestState) Release() {
	if r.pool != nil {
		if !r.readyToRelease.ready() {
			return
		}
		r.notifyCommit = false
		r.deadline = 0
		r.key = 0
		r.seriesID = 0
		r.clientID = 0
		r.respondedTo = 0
		r.node = nil
		r.readyToRead.clear()
		r.readyToRelease.clear()
		r.aggrC = nil
		r.pool.Put(r)
	}
}

type Session struct {
	ClientID    uint64
	SeriesID    uint64
	RespondedTo uint64
}

type proposalShard struct {
	mu           sync.Mutex
	pending      map[uint64]*RequestState
	pool         *sync.Pool
	notifyCommit bool
	tick         uint64
}

func (p *proposalShard) getTick() uint64 { return atomic.LoadUint64(&p.tick) }

func (p *proposalShard) propose(session *Session,
	key uint64, timeoutTick uint64) (*RequestState, error) {
	if timeoutTick == 0 {
		return nil, ErrTimeoutTooSmall
	}
	req := p.pool.Get().(*RequestState)
	req.clientID = session.ClientID
	req.seriesID = session.SeriesID
	req.key = key
	req.deadline = p.getTick() + timeoutTick
	req.notifyCommit = p.notifyCommit
	if req.aggrC != nil {
		plog.Panicf("aggrC not nil")
	}
	if len(req.CompletedC) > 0 {
		req.CompletedC = make(chan RequestResult, 1)
	}
	if p.notifyCommit {
		if len(req.committedC) > 0 || req.committedC == nil {
			req.committedC = make(chan RequestResult, 1)
		}
	} else {
		req.committedC = nil
	}

	p.mu.Lock()
	p.pending[key] = req
	p.mu.Unlock()
	return req, nil
}

type readIndexQueue struct {
	mu     sync.Mutex
	reqs   []*RequestState
	size   int
	closed bool
}

func (q *readIndexQueue) add(rs *RequestState) (bool, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false, true
	}
	if len(q.reqs) >= q.size {
		return false, false
	}
	q.reqs = append(q.reqs, rs)
	return true, false
}

type pendingReadIndex struct {
	seqKey   uint64
	tick     uint64
	pool     *sync.Pool
	requests *readIndexQueue
}

func (p *pendingReadIndex) getTick() uint64 { return atomic.LoadUint64(&p.tick) }

func (p *pendingReadIndex) read(timeoutTick uint64) (*RequestState, error) {
	if timeoutTick == 0 {
		return nil, ErrTimeoutTooSmall
	}
	req := p.pool.Get().(*RequestState)
	req.notifyCommit = false
	req.key = p.nextUserCtx()
	req.deadline = p.getTick() + timeoutTick
	if len(req.CompletedC) > 0 {
		req.CompletedC = make(chan RequestResult, 1)
	}
	ok, closed := p.requests.add(req)
	if closed {
		return nil, ErrClusterClosed
	}
	if !ok {
		return nil, ErrSystemBusy
	}
	return req, nil
}

func (p *pendingReadIndex) nextUserCtx() uint64 {
	return atomic.AddUint64(&p.seqKey, 1)
}

const rsPoolSize = 16

type NodeHost struct {
	notifyCommit bool
	rsPool       []*sync.Pool
}

func (nh *NodeHost) createPools() {
	nh.rsPool = make([]*sync.Pool, rsPoolSize)
	for i := uint64(0); i < rsPoolSize; i++ {
		p := &sync.Pool{}
		p.New = func() interface{} {
			obj := &RequestState{}
			obj.CompletedC = make(chan RequestResult, 1)
			obj.pool = p
			if nh.notifyCommit {
				obj.committedC = make(chan RequestResult, 1)
			}
			return obj
		}
		nh.rsPool[i] = p
	}
}
