// Package bug is the fixed twin of cockroachdb/cockroach#119595
// (https://github.com/cockroachdb/cockroach/pull/119595): Registry.poll takes
// its timer from NewTimer and allocates a fresh one right after every Stop, so
// the stopped (pooled) timer is never touched again; Stop also only returns
// timers to the pool that came from it.
// Check: useafterput (clean).
package bug

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// ---- util/timeutil ----

var timerPool = sync.Pool{New: func() any { return &Timer{} }}

// Timer wraps time.Timer; callers set Read after receiving from C.
type Timer struct {
	timer *time.Timer
	C     <-chan time.Time
	Read  bool

	fromPool bool
}

// NewTimer allocates a Timer from the pool.
func NewTimer() *Timer {
	t := timerPool.Get().(*Timer)
	t.fromPool = true
	return t
}

// Reset changes the timer to expire after duration d.
func (t *Timer) Reset(d time.Duration) {
	if t.timer == nil {
		t.timer = time.NewTimer(d)
		t.C = t.timer.C
		return
	}
	if !t.timer.Stop() && !t.Read {
		<-t.C
	}
	t.timer.Reset(d)
	t.Read = false
}

// Stop prevents the Timer from firing and returns it to the pool. The timer
// must not be used afterwards.
func (t *Timer) Stop() bool {
	var res bool
	if t.timer != nil {
		res = t.timer.Stop()
		if res {
			t.Read = true
		}
	}
	fromPool := t.fromPool
	*t = Timer{}
	if fromPool {
		timerPool.Put(t)
	}
	return res
}

// ---- sql/stmtdiagnostics ----

type Registry struct {
	pollingInterval atomic.Int64 // nanoseconds; 0 disables polling
	onChange        func()
	requests        int
}

func (r *Registry) pollRequests(ctx context.Context) error {
	r.requests++
	return ctx.Err()
}

// SetPollingInterval changes the cluster setting and notifies the poller.
func (r *Registry) SetPollingInterval(d time.Duration) {
	r.pollingInterval.Store(int64(d))
	if r.onChange != nil {
		r.onChange()
	}
}

func (r *Registry) poll(ctx context.Context) {
	var (
		timer               = NewTimer()
		lastPoll            time.Time
		deadline            time.Time
		pollIntervalChanged = make(chan struct{}, 1)
		maybeResetTimer     = func() {
			if interval := time.Duration(r.pollingInterval.Load()); interval == 0 {
				// Setting the interval to zero stops the polling. A stopped
				// timer must not be reused, so allocate a fresh one.
				timer.Stop()
				timer = NewTimer()
			} else {
				newDeadline := lastPoll.Add(interval)
				if deadline.IsZero() || !deadline.Equal(newDeadline) {
					deadline = newDeadline
					timer.Reset(time.Until(deadline))
				}
			}
		}
		poll = func() {
			_ = r.pollRequests(ctx)
			lastPoll = time.Now()
		}
	)
	r.onChange = func() {
		select {
		case pollIntervalChanged <- struct{}{}:
		default:
		}
	}

	defer func() { timer.Stop() }()

	poll()
	for {
		maybeResetTimer()
		select {
		case <-pollIntervalChanged:
			continue // go back around and maybe reset the timer
		case <-timer.C:
			timer.Read = true
		case <-ctx.Done():
			return
		}
		poll()
	}
}
