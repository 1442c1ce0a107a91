// Package bug reproduces the shape of thrasher-corp/gocryptotrader#1237
// (https://github.com/thrasher-corp/gocryptotrader/pull/1237): the dispatch
// system hands out relay channels from a sync.Pool whose New makes a
// bidirectional `chan interface{}`. Subscribers only ever see the channel as a
// receive-only `<-chan interface{}` (Pipe.C), and when a Pipe is released the
// dispatcher's unsubscribe puts that receive-only value back into the pool.
// The pool now holds an element of a different dynamic type, so the next
// subscribe's `.(chan interface{})` assertion fails and every later
// subscription errors with a type assertion failure. The fix makes the pipe
// keep the bidirectional channel and passes that back to the pool.
// Check: typemismatch (the Put of the receive-only channel in unsubscribe).
package bug

import (
	"errors"
	"sync"
)

// ID identifies a subscribed system.
type ID [16]byte

var (
	errIDNotSet              = errors.New("id not set")
	errTypeAssertionFailure  = errors.New("type assertion failure")
	errRouteNotFound         = errors.New("id not found in route list")
	errChannelNotFoundForRef = errors.New("channel not found for id")
	errChannelIsNil          = errors.New("channel is nil")
	errNotRunning            = errors.New("dispatcher not running")
)

// Dispatcher relays published data to subscribed channels.
type Dispatcher struct {
	m       sync.RWMutex
	running bool

	rMtx   sync.Mutex
	routes map[ID][]chan interface{}

	// outbound is the pool of unbuffered relay channels.
	outbound sync.Pool
}

func newRelayChan() interface{} {
	// unbuffered channel for passing data along
	return make(chan interface{})
}

// NewDispatcher builds a dispatcher with an empty route table.
func NewDispatcher() *Dispatcher {
	return &Dispatcher{
		routes:   make(map[ID][]chan interface{}),
		outbound: sync.Pool{New: newRelayChan},
		running:  true,
	}
}

func (d *Dispatcher) subscribe(id ID) (<-chan interface{}, error) {
	if id == (ID{}) {
		return nil, errIDNotSet
	}
	d.m.RLock()
	defer d.m.RUnlock()
	if !d.running {
		return nil, errNotRunning
	}
	d.rMtx.Lock()
	defer d.rMtx.Unlock()
	if _, ok := d.routes[id]; !ok {
		return nil, errRouteNotFound
	}
	ch, ok := d.outbound.Get().(chan interface{})
	if !ok {
		return nil, errTypeAssertionFailure
	}
	d.routes[id] = append(d.routes[id], ch)
	return ch, nil
}

func (d *Dispatcher) unsubscribe(id ID, used <-chan interface{}) error {
	if id == (ID{}) {
		return errIDNotSet
	}
	if used == nil {
		return errChannelIsNil
	}
	d.m.RLock()
	defer d.m.RUnlock()
	if !d.running {
		// stop releases everything itself
		return nil
	}
	d.rMtx.Lock()
	defer d.rMtx.Unlock()
	pipes, ok := d.routes[id]
	if !ok {
		return errRouteNotFound
	}
	for i := range pipes {
		if pipes[i] != used {
			continue
		}
		pipes[i] = pipes[len(pipes)-1]
		pipes[len(pipes)-1] = nil
		d.routes[id] = pipes[:len(pipes)-1]

		// drain, and only recycle the channel if it is still open
		select {
		case _, ok = <-used:
		default:
		}
		if ok {
			d.outbound.Put(used) // want `typemismatch`
		}
		return nil
	}
	return errChannelNotFoundForRef
}

// Mux is the public front of the dispatcher.
type Mux struct {
	d *Dispatcher
}

// Pipe is what a subscriber reads from.
type Pipe struct {
	C  <-chan interface{}
	id ID
	m  *Mux
}

// Subscribe returns a pipe for id.
func (m *Mux) Subscribe(id ID) (Pipe, error) {
	ch, err := m.d.subscribe(id)
	if err != nil {
		return Pipe{}, err
	}
	return Pipe{C: ch, id: id, m: m}, nil
}

// Unsubscribe hands the channel back to the pool.
func (m *Mux) Unsubscribe(id ID, ch <-chan interface{}) error {
	return m.d.unsubscribe(id, ch)
}

// Release returns the pipe's channel to the pool for reuse.
func (p *Pipe) Release() error {
	return p.m.Unsubscribe(p.id, p.C)
}
