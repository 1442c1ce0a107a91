// Source: https://github.com/juicedata/juicefs/pull/5631
// (commit 7f5fb9a222199254c3433ed05a05c855558ed580, "cond: stop the timer
// before calling Reset", pkg/utils/cond.go).
//
// Fixed twin: the pool's New returns a stopped, drained timer, and the
// deferred release drains t.C when Stop reports that the timer already fired
// and the timeout branch did not consume the value, so only clean timers go
// back to timerPool.
//
// Check: noreset (no report expected).
package fixed

import (
	"sync"
	"time"
)

// Cond is similar to sync.Cond, but you can wait with a timeout.
type Cond struct {
	L      sync.Locker
	signal chan struct{}
}

// Signal wakes up a waiter.
// It's required for the caller to hold L.
func (c *Cond) Signal() {
	select {
	case c.signal <- struct{}{}:
	default:
	}
}

// Broadcast wake up all the waiters.
// It's required for the caller to hold L.
func (c *Cond) Broadcast() {
	close(c.signal)
	c.signal = make(chan struct{})
}

var timerPool = sync.Pool{
	New: func() interface{} {
		t := time.NewTimer(time.Minute)
		if !t.Stop() {
			<-t.C
		}
		return t
	},
}

// WaitWithTimeout wait for a signal or a period of timeout eclipsed.
// returns true in case of timeout else false
func (c *Cond) WaitWithTimeout(d time.Duration) (timeout bool) {
	ch := c.signal
	c.L.Unlock()
	t := timerPool.Get().(*time.Timer)
	t.Reset(d)
	defer func() {
		if !t.Stop() && !timeout {
			<-t.C
		}
		timerPool.Put(t)
		c.L.Lock()
	}()
	select {
	case <-ch:
		return false
	case <-t.C:
		return true
	}
}

// NewCond creates a Cond.
func NewCond(lock sync.Locker) *Cond {
	return &Cond{lock, make(chan struct{})}
}
