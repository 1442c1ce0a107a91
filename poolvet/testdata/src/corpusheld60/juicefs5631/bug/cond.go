// Source: https://github.com/juicedata/juicefs/pull/5631
// (commit 7f5fb9a222199254c3433ed05a05c855558ed580, "cond: stop the timer
// before calling Reset", pkg/utils/cond.go).
//
// Bug: Cond.WaitWithTimeout takes a *time.Timer from timerPool, Resets it and
// in a deferred closure Stops it and puts it back. When the timer had already
// fired (or fires while Stop runs) and the waiter left through the signal
// branch, the expired value stays in t.C, so a dirty timer goes back to the
// pool; the next waiter Resets it and immediately reads the stale tick as a
// timeout. The pool's New also hands out a running timer. (In the PR review a
// maintainer asked whether an observed flush timeout stuck in select was
// related.)
//
// Fix: New stops and drains the fresh timer, and the deferred release drains
// t.C when Stop reports the timer already fired and the fire was not consumed
// by the timeout branch.
//
// Check: noreset (the deferred timerPool.Put returns a timer whose channel may
// still hold the previous waiter's expiry).
package bug

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
		return time.NewTimer(time.Second)
	},
}

// WaitWithTimeout wait for a signal or a period of timeout eclipsed.
// returns true in case of timeout else false
func (c *Cond) WaitWithTimeout(d time.Duration) bool {
	ch := c.signal
	c.L.Unlock()
	t := timerPool.Get().(*time.Timer)
	t.Reset(d)
	defer func() {
		t.Stop()
		timerPool.Put(t) // want `noreset`
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
