package noreset

import (
	"sync"
	"time"
)

// Pooled timers armed with Reset: before Go 1.23 a tick left in C reaches
// the next user (hashicorp/yamux f21aae5, cloudwego/kitex#1858). This
// package has no go.mod, so the old timer rules apply.

var timerPool = sync.Pool{New: func() any { return time.NewTimer(time.Hour) }}

// waitDeferred defers the Put: when done comes first the timer goes back
// still armed.
func waitDeferred(done <-chan struct{}, d time.Duration) bool {
	t := timerPool.Get().(*time.Timer)
	defer timerPool.Put(t) // want `the \*time.Timer goes back to the pool after Reset armed it, with no drain of its channel first`
	t.Reset(d)
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// waitStopOnly stops the timer in its deferred closure, but a tick that
// fired before Stop stays in C.
func waitStopOnly(done <-chan struct{}, d time.Duration) bool {
	t := timerPool.Get()
	timer := t.(*time.Timer)
	timer.Reset(d)
	defer func() {
		timer.Stop()
		timerPool.Put(t) // want `the \*time.Timer goes back to the pool after Reset armed it`
	}()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}

// waitDrained stops and drains in its deferred closure: fine.
func waitDrained(done <-chan struct{}, d time.Duration) bool {
	t := timerPool.Get()
	timer := t.(*time.Timer)
	timer.Reset(d)
	defer func() {
		timer.Stop()
		select {
		case <-timer.C:
		default:
		}
		timerPool.Put(t)
	}()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}

// waitStopped drains with if !Stop() before an explicit Put: fine.
func waitStopped(done <-chan struct{}, d time.Duration) bool {
	t := timerPool.Get().(*time.Timer)
	t.Reset(d)
	ok := true
	select {
	case <-done:
		if !t.Stop() {
			<-t.C
		}
	case <-t.C:
		ok = false
	}
	timerPool.Put(t)
	return ok
}

// waitExplicit puts it back with no drain after the select.
func waitExplicit(done <-chan struct{}, d time.Duration) bool {
	t := timerPool.Get().(*time.Timer)
	t.Reset(d)
	ok := true
	select {
	case <-done:
	case <-t.C:
		ok = false
	}
	t.Stop()
	timerPool.Put(t) // want `the \*time.Timer goes back to the pool after Reset armed it`
	return ok
}
