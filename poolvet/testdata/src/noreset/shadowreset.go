package noreset

import "sync"

// Timers recycled through a pool that resets what it takes back; Cron's
// empty Reset shadows the embedded timer's (duanhf2012/origin 0729526).
type baseTimer struct {
	name      string
	cancelled bool
	cb        func()
}

func (t *baseTimer) Reset() {
	t.name = ""
	t.cancelled = false
	t.cb = nil
}

type resettable interface{ Reset() }

var timerObjs = sync.Pool{New: func() any { return new(cronTimer) }}

func releaseTimer(r resettable) {
	r.Reset()
	timerObjs.Put(r)
}

type cronTimer struct {
	baseTimer
	spec string
}

func (c *cronTimer) Reset() { // want `this empty Reset shadows the Reset of the embedded baseTimer`
}

// tickTimer's Reset resets the embedded timer: fine.
type tickTimer struct {
	baseTimer
	every int
}

func (c *tickTimer) Reset() {
	c.baseTimer.Reset()
	c.every = 0
}

// quietBase's Reset clears nothing, so an empty Reset over it hides
// nothing: fine.
type quietBase struct{ n int }

func (q *quietBase) Reset() {}

type quietTimer struct{ quietBase }

func (q *quietTimer) Reset() {}
