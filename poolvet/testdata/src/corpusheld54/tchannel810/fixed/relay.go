// Source: https://github.com/uber/tchannel-go/pull/810 (fixes
// https://github.com/uber/tchannel-go/issues/808), commit
// 0b71d5ed50c706c5a962d813a282981020440cac.
//
// Bug: relay items carry a *relayTimer taken from relayTimerPool (a wrapper
// around sync.Pool). relayItems.Get copied the item out under the read lock
// and released the lock; Receive and failRelayItem then called
// item.timeout.Stop() with no lock held. Concurrently, Delete (called when a
// tombstone expires or the call finishes) removed the item and Released the
// timer back to the pool. The stale copy of the item then called Stop on a
// timer that was already back in the pool (and possibly handed to another
// call), racing with its new owner.
//
// Fix: Get takes a stopTimeout flag and stops the timeout while still holding
// the read lock, so the timer can no longer be released between the lookup
// and the Stop; callers use the returned "stopped" result instead of calling
// item.timeout.Stop() themselves.
//
// Fixed twin: Get stops the timeout under the read lock.
//
// Check: useafterput (item.timeout.Stop() in Receive and failRelayItem uses a
// pooled timer that Delete may already have Released to the pool)
package fixed

import (
	"math"
	"sync"
	"time"
)

type relayTimerTrigger func(items *relayItems, id uint32, isOriginator bool)

type relayTimerPool struct {
	pool    sync.Pool
	trigger relayTimerTrigger
}

type relayTimer struct {
	pool  *relayTimerPool
	timer *time.Timer

	active   bool
	stopped  bool
	released bool

	items        *relayItems
	id           uint32
	isOriginator bool
}

func (rt *relayTimer) OnTimer() {
	items, id, isOriginator := rt.items, rt.id, rt.isOriginator
	rt.markTimerInactive()
	rt.pool.trigger(items, id, isOriginator)
}

func (tp *relayTimerPool) Get() *relayTimer {
	timer, ok := tp.pool.Get().(*relayTimer)
	if ok {
		timer.released = false
		return timer
	}
	rt := &relayTimer{pool: tp}
	rt.timer = time.AfterFunc(time.Duration(math.MaxInt64), rt.OnTimer)
	rt.timer.Stop()
	return rt
}

func (tp *relayTimerPool) Put(rt *relayTimer) {
	tp.pool.Put(rt)
}

func (rt *relayTimer) Start(d time.Duration, items *relayItems, id uint32, isOriginator bool) {
	rt.active = true
	rt.stopped = false
	rt.items = items
	rt.id = id
	rt.isOriginator = isOriginator
	rt.timer.Reset(d)
}

func (rt *relayTimer) markTimerInactive() {
	rt.active = false
	rt.items = nil
	rt.id = 0
	rt.isOriginator = false
}

func (rt *relayTimer) Stop() bool {
	if rt.stopped {
		return true
	}
	stopped := rt.timer.Stop()
	if stopped {
		rt.stopped = true
		rt.markTimerInactive()
	}
	return stopped
}

func (rt *relayTimer) Release() {
	if rt.active {
		panic("only stopped or completed timers can be released")
	}
	rt.released = true
	rt.pool.Put(rt)
}

type relayItem struct {
	tomb         bool
	isOriginator bool
	timeout      *relayTimer
}

type relayItems struct {
	sync.RWMutex
	tombs uint64
	items map[uint32]relayItem
}

// Get checks for a relay item by ID, and will stop the timeout with the
// read lock held (to avoid a race between timeout stop and deletion).
func (r *relayItems) Get(id uint32, stopTimeout bool) (_ relayItem, stopped bool, found bool) {
	r.RLock()
	defer r.RUnlock()

	item, ok := r.items[id]
	if !ok {
		return relayItem{}, false, false
	}

	if !stopTimeout {
		return item, false, true
	}

	return item, item.timeout.Stop(), true
}

func (r *relayItems) Delete(id uint32) (relayItem, bool) {
	r.Lock()
	item, ok := r.items[id]
	if !ok {
		r.Unlock()
		return item, false
	}
	delete(r.items, id)
	if item.tomb {
		r.tombs--
	}
	r.Unlock()

	item.timeout.Release()
	return item, !item.tomb
}

func (r *relayItems) Entomb(id uint32, deleteAfter time.Duration) (relayItem, bool) {
	r.Lock()
	item, ok := r.items[id]
	if !ok || item.tomb {
		r.Unlock()
		return item, false
	}
	r.tombs++
	item.tomb = true
	r.items[id] = item
	r.Unlock()

	time.AfterFunc(deleteAfter, func() { r.Delete(id) })
	return item, true
}

type Frame struct {
	ID       uint32
	Finished bool
}

type Relayer struct {
	items    *relayItems
	sendCh   chan *Frame
	failures []string
}

func (r *Relayer) Receive(f *Frame) (sent bool, failureReason string) {
	finished := f.Finished

	// Stop the timeout if the call if finished.
	item, stopped, ok := r.items.Get(f.ID, finished)
	if !ok {
		return false, "relay-not-found"
	}
	if item.tomb || (finished && !stopped) {
		// Item has previously timed out, or is in the process of timing out.
		return true, ""
	}

	r.sendCh <- f
	if finished {
		r.items.Delete(f.ID)
	}
	return true, ""
}

func (r *Relayer) failRelayItem(id uint32, failure string) {
	// Stop the timeout, so we either fail it here, or in the timeout goroutine but not both.
	item, stopped, found := r.items.Get(id, true)
	if !found {
		return
	}
	if !stopped {
		return
	}

	item, ok := r.items.Entomb(id, time.Second)
	if !ok {
		return
	}
	if item.isOriginator {
		r.failures = append(r.failures, failure)
	}
}
