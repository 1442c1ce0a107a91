// Package bug reproduces the shape of gocronx-team/cron GOC-21 (regression test commit
// https://github.com/gocronx-team/cron/commit/b57b5a568ec96911331bdf28008b69810756ad34,
// shipped through https://github.com/gocronx-team/gocron/pull/240): the scheduler
// recycles its add-request objects through a sync.Pool. Each request owns a
// one-slot buffered result channel and a pointer to the entry being added. When
// the caller gave up on the <-done branch after run() had already written the
// result, or simply after it read the result, the request went back to the pool
// with the entry still attached and possibly a stale error still sitting in the
// channel, so the next caller could read the previous call's result.
// Check: noreset (at each Put of a request that was not drained and cleared).
package bug

import (
	"errors"
	"sync"
)

type Entry struct {
	Name string
	Next int64
}

type addRequest struct {
	entry  *Entry
	result chan error
}

var addReqPool = sync.Pool{
	New: func() any {
		return &addRequest{result: make(chan error, 1)}
	},
}

type Cron struct {
	add     chan addRequest
	done    chan struct{}
	index   map[string]*Entry
	running bool
	mu      sync.Mutex
}

func New() *Cron {
	return &Cron{
		add:   make(chan addRequest),
		done:  make(chan struct{}),
		index: make(map[string]*Entry),
	}
}

// ScheduleWithError adds an entry, handing it to the run loop when running.
func (c *Cron) ScheduleWithError(name string) error {
	entry := &Entry{Name: name}
	if !c.running {
		c.mu.Lock()
		defer c.mu.Unlock()
		if _, ok := c.index[name]; ok {
			return errors.New("cron: job name already exists")
		}
		c.index[name] = entry
		return nil
	}

	req := addReqPool.Get().(*addRequest)
	req.entry = entry
	select {
	case c.add <- *req:
		select {
		case err := <-req.result:
			addReqPool.Put(req) // want `noreset`
			return err
		case <-c.done:
			addReqPool.Put(req) // want `noreset`
			return errors.New("cron: scheduler stopped")
		}
	case <-c.done:
		addReqPool.Put(req) // want `noreset`
		return errors.New("cron: scheduler stopped")
	}
}

func (c *Cron) run(stop chan struct{}) {
	for {
		select {
		case req := <-c.add:
			if _, ok := c.index[req.entry.Name]; ok {
				req.result <- errors.New("cron: job name already exists")
				break
			}
			c.index[req.entry.Name] = req.entry
			req.result <- nil
		case <-stop:
			close(c.done)
			return
		}
	}
}
