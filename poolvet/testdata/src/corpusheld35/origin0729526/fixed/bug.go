// Package bug reproduces the shape of duanhf2012/origin commit 0729526
// (https://github.com/duanhf2012/origin/commit/07295260cb4a93e9d5d86fdd92d4474276d7b55e,
// "fix the memory-pool reset of ticker and cron timers"): the game server
// framework recycles timers through PoolEx, a channel-backed cache in front of
// a sync.Pool whose Put calls the object's Reset before caching it. Timer.Reset
// clears the timer, but Cron and Ticker embed Timer and declared their own
// empty Reset methods, which shadow it. A cancelled cron or ticker therefore
// went back to the pool still cancelled and still holding its name, callback,
// channel and extra data, and the next CronFunc/TickerFunc handed out a timer
// carrying the previous owner's state. The fix (this twin) makes both Reset methods
// call Timer.Reset.
// Check: noreset (the Reset methods of Cron and Ticker, which forget the embedded Timer's fields).
package bug

import (
	"sync"
	"time"
)

// IPoolData is what PoolEx stores.
type IPoolData interface {
	Reset()
	IsRef() bool
	Ref()
	UnRef()
}

// PoolEx keeps up to cap(C) objects in a channel and the rest in a sync.Pool.
type PoolEx struct {
	C        chan IPoolData
	syncPool sync.Pool
}

// NewPoolEx builds a PoolEx.
func NewPoolEx(C chan IPoolData, New func() IPoolData) *PoolEx {
	var pool PoolEx
	pool.C = C
	pool.syncPool.New = func() interface{} {
		return New()
	}
	return &pool
}

// Get hands out a cached object or a new one.
func (pool *PoolEx) Get() IPoolData {
	select {
	case d := <-pool.C:
		d.Ref()
		return d
	default:
		data := pool.syncPool.Get().(IPoolData)
		data.Ref()
		return data
	}
}

// Put resets data and caches it.
func (pool *PoolEx) Put(data IPoolData) {
	if !data.IsRef() {
		panic("Repeatedly freeing memory")
	}
	data.Reset()
	data.UnRef()
	select {
	case pool.C <- data:
	default:
		pool.syncPool.Put(data)
	}
}

// Timer is one scheduled callback.
type Timer struct {
	name         string
	cancelled    bool
	C            chan *Timer
	interval     time.Duration
	fireTime     time.Time
	cb           func()
	AdditionData interface{}
	rOpen        bool

	ref bool
}

// Ticker fires every interval.
type Ticker struct {
	Timer
}

// Cron fires on a schedule.
type Cron struct {
	Timer
}

var cronPool = NewPoolEx(make(chan IPoolData, 1000), func() IPoolData {
	return &Cron{}
})

var tickerPool = NewPoolEx(make(chan IPoolData, 1000), func() IPoolData {
	return &Ticker{}
})

func newTicker() *Ticker {
	return tickerPool.Get().(*Ticker)
}

func releaseTicker(ticker *Ticker) {
	tickerPool.Put(ticker)
}

func newCron() *Cron {
	return cronPool.Get().(*Cron)
}

func releaseCron(cron *Cron) {
	cronPool.Put(cron)
}

// Do runs the callback.
func (t *Timer) Do() {
	if t.cb != nil {
		t.cb()
	}
}

// Cancel stops the timer at its next firing.
func (t *Timer) Cancel() {
	t.cancelled = true
}

// IsActive reports whether the timer was not cancelled.
func (t *Timer) IsActive() bool {
	return !t.cancelled
}

// Reset clears a timer for reuse.
func (t *Timer) Reset() {
	t.name = ""
	t.cancelled = false
	t.C = nil
	t.interval = 0
	t.fireTime = time.Time{}
	t.cb = nil
	t.AdditionData = nil
	t.rOpen = false
}

// IsRef reports whether the timer is handed out.
func (t *Timer) IsRef() bool { return t.ref }

// Ref marks the timer as handed out.
func (t *Timer) Ref() { t.ref = true }

// UnRef marks the timer as cached.
func (t *Timer) UnRef() { t.ref = false }

// Reset clears a cron for reuse.
func (c *Cron) Reset() {
	c.Timer.Reset()
}

// IsRef reports whether the cron is handed out.
func (c *Cron) IsRef() bool { return c.ref }

// Ref marks the cron as handed out.
func (c *Cron) Ref() { c.ref = true }

// UnRef marks the cron as cached.
func (c *Cron) UnRef() { c.ref = false }

// Reset clears a ticker for reuse.
func (c *Ticker) Reset() {
	c.Timer.Reset()
}

// IsRef reports whether the ticker is handed out.
func (c *Ticker) IsRef() bool { return c.ref }

// Ref marks the ticker as handed out.
func (c *Ticker) Ref() { c.ref = true }

// UnRef marks the ticker as cached.
func (c *Ticker) UnRef() { c.ref = false }

// Dispatcher delivers fired timers to one goroutine.
type Dispatcher struct {
	ChanTimer chan *Timer
}

// SetupTimer arms t (the wheel is reduced to a sleep here).
func SetupTimer(t *Timer) *Timer {
	go func(c chan *Timer, d time.Duration) {
		time.Sleep(d)
		c <- t
	}(t.C, time.Until(t.fireTime))
	return t
}

// CronFunc runs cb at each time next returns, until the cron is cancelled.
func (dispatcher *Dispatcher) CronFunc(next func(time.Time) time.Time, cb func(*Cron), onTimerClose func(*Timer)) *Cron {
	now := time.Now()
	nextTime := next(now)
	if nextTime.IsZero() {
		return nil
	}
	cron := newCron()
	var cbFunc func()
	cbFunc = func() {
		if !cron.IsActive() {
			onTimerClose(&cron.Timer)
			releaseCron(cron)
			return
		}
		now := time.Now()
		nextTime := next(now)
		if nextTime.IsZero() {
			cb(cron)
			return
		}
		cron.interval = nextTime.Sub(now)
		cron.fireTime = now.Add(cron.interval)
		SetupTimer(&cron.Timer)
		cb(cron)
	}
	cron.C = dispatcher.ChanTimer
	cron.cb = cbFunc
	cron.name = "cron"
	cron.interval = nextTime.Sub(now)
	cron.fireTime = now.Add(cron.interval)
	SetupTimer(&cron.Timer)
	return cron
}

// TickerFunc runs cb every d until the ticker is cancelled.
func (dispatcher *Dispatcher) TickerFunc(d time.Duration, cb func(*Ticker), onTimerClose func(*Timer)) *Ticker {
	ticker := newTicker()
	cbFunc := func() {
		cb(ticker)
		if ticker.Timer.IsActive() {
			ticker.fireTime = time.Now().Add(d)
			SetupTimer(&ticker.Timer)
		} else {
			onTimerClose(&ticker.Timer)
			releaseTicker(ticker)
		}
	}
	ticker.C = dispatcher.ChanTimer
	ticker.fireTime = time.Now().Add(d)
	ticker.cb = cbFunc
	ticker.name = "ticker"
	ticker.interval = d
	SetupTimer(&ticker.Timer)
	return ticker
}
