// Package bug reproduces the shape of WuKongIM/WuKongIM commit 653e72d
// (https://github.com/WuKongIM/WuKongIM/commit/653e72d50a847418599aae7ecf73ec452d6348a5,
// "fix: avoid append request reuse race after completion"): a channel replica
// takes append request envelopes from a sync.Pool. The appending goroutine
// waits on the request's waiter and, on a successful completion, releases the
// envelope (zeroing it and putting it back) at once. The replica loop
// completed a locally committed request through completeAppendRequestLocked,
// which publishes the completion, and only afterwards read req.requestID to
// drop it from the in-flight map, so it read an envelope that may already be
// back in the pool (zeroed, or reused by another append). The fix captures the
// request ID before publishing the completion.
// Check: useafterput (the read of req.requestID after the completion that hands req back to the pool).
package bug

import "sync"

const (
	commitModeQuorum = iota
	commitModeLocal
)

// CommitResult reports where a batch landed.
type CommitResult struct {
	BaseOffset uint64
	NextOffset uint64
}

type appendCompletion struct {
	result CommitResult
	err    error
}

type appendWaiter struct {
	ch     chan appendCompletion
	result CommitResult
}

type appendRequest struct {
	requestID  uint64
	batch      [][]byte
	commitMode int
	waiter     *appendWaiter
	completed  bool
}

// appendRequestPool recycles append request envelopes after successful commits.
var appendRequestPool = sync.Pool{
	New: func() any { return new(appendRequest) },
}

func acquireAppendRequest() *appendRequest {
	return appendRequestPool.Get().(*appendRequest)
}

func releaseAppendRequest(req *appendRequest) {
	if req == nil {
		return
	}
	*req = appendRequest{}
	appendRequestPool.Put(req)
}

type replica struct {
	mu             sync.Mutex
	nextRequestID  uint64
	leo            uint64
	appendRequests map[uint64]*appendRequest
	commands       chan *appendRequest
}

func newReplica() *replica {
	r := &replica{
		appendRequests: make(map[uint64]*appendRequest),
		commands:       make(chan *appendRequest, 16),
	}
	go r.loop()
	return r
}

// Append submits batch and waits for its commit.
func (r *replica) Append(batch [][]byte, local bool) (CommitResult, error) {
	req := acquireAppendRequest()
	req.batch = batch
	if local {
		req.commitMode = commitModeLocal
	}
	req.waiter = &appendWaiter{ch: make(chan appendCompletion, 1)}
	r.commands <- req

	completion := <-req.waiter.ch
	if completion.err == nil {
		releaseAppendRequest(req)
	}
	return completion.result, completion.err
}

func (r *replica) loop() {
	for req := range r.commands {
		r.mu.Lock()
		r.nextRequestID++
		req.requestID = r.nextRequestID
		r.appendRequests[req.requestID] = req
		base := r.leo
		r.leo += uint64(len(req.batch))
		req.waiter.result = CommitResult{BaseOffset: base, NextOffset: r.leo}
		r.applyLeaderAppendCommittedLocked([]*appendRequest{req})
		r.mu.Unlock()
	}
}

func (r *replica) applyLeaderAppendCommittedLocked(reqs []*appendRequest) {
	for _, req := range reqs {
		if req == nil {
			continue
		}
		if req.commitMode == commitModeLocal {
			r.completeAppendRequestLocked(req, req.waiter.result, nil)
			delete(r.appendRequests, req.requestID) // want `useafterput`
			continue
		}
		// Quorum commits wait for follower progress elsewhere.
	}
}

func (r *replica) completeAppendRequestLocked(req *appendRequest, result CommitResult, err error) {
	if req == nil || req.completed {
		return
	}
	req.completed = true
	r.completeAppendWaiter(req.waiter, result, err)
}

func (r *replica) completeAppendWaiter(waiter *appendWaiter, result CommitResult, err error) {
	if waiter == nil || waiter.ch == nil {
		return
	}
	select {
	case waiter.ch <- appendCompletion{result: result, err: err}:
	default:
	}
}
