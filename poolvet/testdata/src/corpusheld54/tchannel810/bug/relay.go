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
// Check: useafterput (item.timeout.Stop() in Receive and failRelayItem uses a
// pooled timer that Delete may already have Released to the pool)
package bug

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

func (r *relayItems) Get(id uint32) (relayItem, bool) {
	r.RLock()
	item, ok := r.items[id]
	r.RUnlock()

	return item, ok
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
	item, ok := r.items.Get(f.ID)
	if !ok {
		return false, "relay-not-found"
	}

	finished := f.Finished
	if item.tomb {
		return true, ""
	}

	// If the call is finished, we stop the timeout to ensure
	// we don't have concurrent calls to end the call.
	if finished && !item.timeout.Stop() { // want `useafterput`
		return true, ""
	}

	r.sendCh <- f
	if finished {
		r.items.Delete(f.ID)
	}
	return true, ""
}

func (r *Relayer) failRelayItem(id uint32, failure string) {
	item, ok := r.items.Get(id)
	if !ok {
		return
	}

	// The call could time-out right as we entomb it, which would cause spurious
	// error logs, so ensure we can stop the timeout.
	if !item.timeout.Stop() { // want `useafterput`
		return
	}

	item, ok = r.items.Entomb(id, time.Second)
	if !ok {
		return
	}
	if item.isOriginator {
		r.failures = append(r.failures, failure)
	}
}
