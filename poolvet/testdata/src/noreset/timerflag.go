package noreset

import (
	"sync"
	"time"
)

// A deferred closure stops the timer and drains it unless the wait already
// took the tick (juicefs 7f5fb9a): a drain guarded by more than the failed
// Stop is still a drain. Silent.
var tfTimers = sync.Pool{New: func() any {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}}

func tfWait(ch chan struct{}, d time.Duration) (timeout bool) {
	t := tfTimers.Get().(*time.Timer)
	t.Reset(d)
	defer func() {
		if !t.Stop() && !timeout {
			<-t.C
		}
		tfTimers.Put(t)
	}()
	select {
	case <-ch:
		return false
	case <-t.C:
		return true
	}
}

// The same closure without any drain is reported.
func tfWaitUndrained(ch chan struct{}, d time.Duration) (timeout bool) {
	t := tfTimers.Get().(*time.Timer)
	t.Reset(d)
	defer func() {
		t.Stop()
		tfTimers.Put(t) // want `the \*time.Timer goes back to the pool after Reset armed it`
	}()
	select {
	case <-ch:
		return false
	case <-t.C:
		return true
	}
}
