// Package bug reproduces the shape of cockroachdb/cockroach#119595
// (https://github.com/cockroachdb/cockroach/pull/119595, fixes #119593,
// "stmtdiagnostics: fix incorrect usage of timeutil.Timer"): timeutil.Timer's
// Stop method zeroes the timer and unconditionally puts it into timerPool, so
// a stopped Timer must not be used again. The statement-diagnostics
// Registry.poll loop keeps a Timer, and its maybeResetTimer closure calls
// timer.Stop() when the polling interval setting is changed to zero; the loop
// then goes on selecting on timer.C and may Reset the same timer when the
// interval is raised again. Meanwhile NewTimer() elsewhere can hand the very
// same object to another user, so two owners share one timer (a deadlock on
// server shutdown was observed).
// The fix allocates a fresh timer after every Stop (and makes Stop only pool
// timers that came from the pool).
// Check: useafterput (the timer is used after Stop, a Release method that
// puts it into the pool; report at the first use after the Stop).
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
}

// NewTimer allocates a Timer from the pool.
func NewTimer() *Timer { return timerPool.Get().(*Timer) }

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
	*t = Timer{}
	timerPool.Put(t)
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
		timer               Timer
		lastPoll            time.Time
		deadline            time.Time
		pollIntervalChanged = make(chan struct{}, 1)
		maybeResetTimer     = func() {
			if interval := time.Duration(r.pollingInterval.Load()); interval == 0 {
				// Setting the interval to zero stops the polling.
				timer.Stop()
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

	poll()
	for {
		maybeResetTimer()
		select {
		case <-pollIntervalChanged:
			continue // go back around and maybe reset the timer
		case <-timer.C: // want `useafterput`
			timer.Read = true
		case <-ctx.Done():
			return
		}
		poll()
	}
}
