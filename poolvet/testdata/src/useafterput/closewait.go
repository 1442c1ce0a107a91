package useafterput

import (
	"sync"
	"time"
)

// A pending call whose reader closes done to wake the caller, which then
// puts the call back: the reader's later look at the call reads an object
// the pool may have handed out again (valyala/gorpc 2bd442a).
type pendingCall struct {
	resp  []byte
	start time.Time
	done  chan struct{}
}

var pendingCalls = sync.Pool{New: func() any { return new(pendingCall) }}

func callAndWait(send func(*pendingCall)) []byte {
	pc := pendingCalls.Get().(*pendingCall)
	pc.start = time.Now()
	pc.done = make(chan struct{})
	send(pc)
	<-pc.done
	resp := pc.resp
	pc.resp, pc.done = nil, nil
	pendingCalls.Put(pc)
	return resp
}

func deliver(pc *pendingCall, resp []byte, took func(time.Duration)) {
	pc.resp = resp
	close(pc.done)
	took(time.Since(pc.start)) // want `pc is used after the channel it signals on was closed at line \d+: a function waiting on that channel puts it back into the pool`
}

// The fix: read what is needed before the close.
func deliverFixed(pc *pendingCall, resp []byte, took func(time.Duration)) {
	pc.resp = resp
	start := pc.start
	close(pc.done)
	took(time.Since(start))
}

// A job whose waiter does not put it back: using it after the close is
// the waiter's business, not the pool's.
type waitedJob struct {
	out  []byte
	done chan struct{}
}

func runJob(j *waitedJob, out []byte) int {
	j.out = out
	close(j.done)
	return len(j.out)
}

func waitJob(j *waitedJob) []byte {
	<-j.done
	return j.out
}
