// Package bug reproduces the shape of spiffe/spire#5509
// (https://github.com/spiffe/spire/pull/5509, commit f0cbc4bab "fix pool usage
// to satisfy linter"): the server's eventTracker recycles the slice of event
// ids it hands to the entry fetchers through a sync.Pool. The pool's New gave
// a nil []uint and FreeEvents put the truncated slice header itself back,
// so every Put boxed a slice value into an interface (an allocation per
// call, defeating the pool). The fix pools a *[]uint instead.
//
// Check: nonpointer (the slice value put into the pool in FreeEvents).
package bug

import (
	"context"
	"errors"
	"sync"
)

const maxPooledEvents = 1 << 12

type eventTracker struct {
	pollPeriods uint
	events      map[uint]uint
	pool        sync.Pool
}

func newEventTracker(pollPeriods uint) *eventTracker {
	if pollPeriods < 1 {
		pollPeriods = 1
	}
	return &eventTracker{
		pollPeriods: pollPeriods,
		events:      make(map[uint]uint),
		pool: sync.Pool{
			New: func() any {
				return []uint(nil)
			},
		},
	}
}

func (et *eventTracker) StartTracking(event uint) { et.events[event] = 0 }

func (et *eventTracker) StopTracking(event uint) { delete(et.events, event) }

// SelectEvents returns the ids still inside their polling window, in a
// buffer borrowed from the pool; callers hand it back with FreeEvents.
func (et *eventTracker) SelectEvents() []uint {
	list := et.pool.Get().([]uint)
	for event := range et.events {
		if et.events[event] >= et.pollPeriods {
			et.StopTracking(event)
			continue
		}
		list = append(list, event)
		et.events[event]++
	}
	return list
}

func (et *eventTracker) FreeEvents(events []uint) {
	if cap(events) > maxPooledEvents {
		return
	}
	et.pool.Put(events[:0]) // want `nonpointer`
}

var errNotFound = errors.New("not found")

type nodeEvent struct{ spiffeID string }

type store interface {
	FetchNodeEvent(ctx context.Context, id uint) (nodeEvent, error)
}

type attestedNodes struct {
	ds           store
	eventTracker *eventTracker
	fetchNodes   map[string]struct{}
}

func (a *attestedNodes) selectPolledEvents(ctx context.Context) {
	selected := a.eventTracker.SelectEvents()
	for _, id := range selected {
		ev, err := a.ds.FetchNodeEvent(ctx, id)
		switch {
		case err == nil:
		case errors.Is(err, errNotFound):
			continue
		default:
			continue
		}
		a.fetchNodes[ev.spiffeID] = struct{}{}
		a.eventTracker.StopTracking(id)
	}
	a.eventTracker.FreeEvents(selected)
}
