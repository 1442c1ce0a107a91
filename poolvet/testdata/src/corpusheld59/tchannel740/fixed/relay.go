// Source: https://github.com/uber/tchannel-go/pull/740
// (commit d008294c517a522d34d66b54ba8d014518486f8e, "relay: Fix timer
// release before it has stopped/completed").
//
// Bug: relay timeouts are pooled relayTimers whose time.AfterFunc callback
// (OnTimer) runs in its own goroutine and reads the timer's items/id. When a
// response frame finished a call, Receive -> finishRelayItem -> Delete called
// item.timeout.Stop() without checking its result and then
// item.timeout.Release(), which puts the timer back into the relayTimerPool.
// If the timeout had fired concurrently, the timer went back to the pool
// while its callback was still running on it (panic "only stopped or
// completed timers can be released", or the callback acting on a timer that
// was already reused for another call).
//
// Fix: Receive stops the timeout itself when the call is finished and, if
// Stop reports that the timer already fired, leaves the call to the timeout
// goroutine; Stop remembers a previous stop so it can be called again; Delete
// no longer stops (it only releases a timer that is known to be stopped or
// completed).
//
// Check: useafterput (the Release in Delete puts a timer back into the pool
// while the timer goroutine it was handed to may still be using it)
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
	verify  bool
}

type relayTimer struct {
	pool  *relayTimerPool // const
	timer *time.Timer     // const

	active   bool // mutated on Start/Stop
	stopped  bool // mutated on Stop
	released bool // mutated on Get/Release.

	// Per-timer parameters passed back when the timer is triggered.
	items        *relayItems
	id           uint32
	isOriginator bool
}

func (rt *relayTimer) OnTimer() {
	rt.verifyNotReleased()
	items, id, isOriginator := rt.items, rt.id, rt.isOriginator
	rt.markTimerInactive()
	rt.pool.trigger(items, id, isOriginator)
}

func newRelayTimerPool(trigger relayTimerTrigger, verify bool) *relayTimerPool {
	return &relayTimerPool{
		trigger: trigger,
		verify:  verify,
	}
}

// Get returns a relay timer that has not started.
func (tp *relayTimerPool) Get() *relayTimer {
	timer, ok := tp.pool.Get().(*relayTimer)
	if ok {
		timer.released = false
		return timer
	}

	rt := &relayTimer{
		pool: tp,
	}
	rt.timer = time.AfterFunc(time.Duration(math.MaxInt64), rt.OnTimer)
	if !rt.timer.Stop() {
		panic("relayTimer requires timers in stopped state, but failed to stop underlying timer")
	}
	return rt
}

// Put returns a relayTimer back to the pool.
func (tp *relayTimerPool) Put(rt *relayTimer) {
	if tp.verify {
		return
	}
	tp.pool.Put(rt)
}

// Start starts a timer with the given duration for the specified ID.
func (rt *relayTimer) Start(d time.Duration, items *relayItems, id uint32, isOriginator bool) {
	rt.verifyNotReleased()
	if rt.active {
		panic("Tried to start an already-active timer")
	}

	rt.active = true
	rt.stopped = false
	rt.items = items
	rt.id = id
	rt.isOriginator = isOriginator

	if wasActive := rt.timer.Reset(d); wasActive {
		panic("relayTimer's underlying timer was Started multiple times without Stop")
	}
}

func (rt *relayTimer) markTimerInactive() {
	rt.active = false
	rt.items = nil
	rt.id = 0
	rt.isOriginator = false
}

// Stop stops the timer and returns whether the timer was stopped.
// If the timer has been executed, it returns false, but in all other
// cases, it returns true (even if the timer was stopped previously).
func (rt *relayTimer) Stop() bool {
	rt.verifyNotReleased()

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

// Release releases a timer back to the timer pool. The timer MUST have run or be
// stopped before Release is called.
func (rt *relayTimer) Release() {
	rt.verifyNotReleased()
	if rt.active {
		panic("only stopped or completed timers can be released")
	}
	rt.released = true
	rt.pool.Put(rt)
}

func (rt *relayTimer) verifyNotReleased() {
	if rt.released {
		panic("Released timer cannot be used")
	}
}

type relayItem struct {
	remapID uint32
	tomb    bool
	timeout *relayTimer
}

type relayItems struct {
	sync.RWMutex

	items map[uint32]relayItem
	tombs uint64
}

func (r *relayItems) Get(id uint32) (relayItem, bool) {
	r.RLock()
	item, ok := r.items[id]
	r.RUnlock()
	return item, ok
}

func (r *relayItems) Add(id uint32, item relayItem) {
	r.Lock()
	r.items[id] = item
	r.Unlock()
}

// Delete removes a relayItem completely (without leaving a tombstone). It
// returns the deleted item, along with a bool indicating whether we completed a
// relayed call.
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

// Entomb sets the tomb bit on a relayItem.
func (r *relayItems) Entomb(id uint32) (relayItem, bool) {
	r.Lock()
	defer r.Unlock()
	item, ok := r.items[id]
	if !ok || item.tomb {
		return item, false
	}
	item.tomb = true
	r.items[id] = item
	r.tombs++
	return item, true
}

type Relayer struct {
	timeouts *relayTimerPool
	outbound *relayItems
	pending  int64
}

func NewRelayer() *Relayer {
	r := &Relayer{outbound: &relayItems{items: make(map[uint32]relayItem)}}
	r.timeouts = newRelayTimerPool(r.timeoutRelayItem, false)
	return r
}

func (r *Relayer) addRelayItem(id, remapID uint32, ttl time.Duration) {
	item := relayItem{remapID: remapID, timeout: r.timeouts.Get()}
	r.outbound.Add(id, item)
	item.timeout.Start(ttl, r.outbound, id, true)
	r.pending++
}

// Receive receives frames intended for this connection.
func (r *Relayer) Receive(id uint32, finished bool) (sent bool, failureReason string) {
	item, ok := r.outbound.Get(id)
	if !ok {
		return false, "relay-not-found"
	}
	if item.tomb {
		// Call timed out, ignore this frame.
		return true, ""
	}

	// If the call is finished, we stop the timeout to ensure
	// we don't have concurrent calls to end the call.
	if finished && !item.timeout.Stop() {
		// Timeout goroutine is already ending this call.
		return true, ""
	}

	// ... forward the frame to the other side ...

	if finished {
		r.finishRelayItem(r.outbound, id)
	}
	return true, ""
}

func (r *Relayer) timeoutRelayItem(items *relayItems, id uint32, isOriginator bool) {
	if _, ok := items.Entomb(id); !ok {
		return
	}
	r.pending--
}

func (r *Relayer) finishRelayItem(items *relayItems, id uint32) {
	if _, ok := items.Delete(id); !ok {
		return
	}
	r.pending--
}
