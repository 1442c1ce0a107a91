// Package bug reproduces the shape of grafana/tempo#5566 (https://github.com/grafana/tempo/pull/5566):
// the service-graph store keeps pending edges in a list and recycles them through edgePool.
// grabEdge takes an Edge from the pool and calls resetEdge, which clears the fields one by one;
// fields added to Edge later (ServerStartTimeUnixNano, ClientEndTimeUnixNano) were never added
// to resetEdge, so a recycled edge carries the timestamps of an unrelated earlier span pair.
// The fix rebuilds the whole struct (*e = Edge{...}) keeping only the Dimensions map.
// Check: noreset (fixed twin: resetEdge rebuilds the whole struct).
package bug

import (
	"container/list"
	"errors"
	"sync"
	"time"
)

var ErrTooManyItems = errors.New("too many items")

type ConnectionType string

const (
	Unknown  ConnectionType = ""
	Database ConnectionType = "database"
)

// Edge is an edge between two services.
type Edge struct {
	key string

	TraceID                                        string
	ConnectionType                                 ConnectionType
	ServerService, ClientService                   string
	ServerLatencySec, ClientLatencySec             float64
	ServerStartTimeUnixNano, ClientEndTimeUnixNano uint64

	Failed     bool
	Dimensions map[string]string
	PeerNode   string

	expiration     int64
	SpanMultiplier float64
}

// resetEdge brings e back to its zero state for reuse.
func resetEdge(e *Edge) {
	*e = Edge{
		Dimensions:     e.Dimensions,
		SpanMultiplier: 1,
	}
	clear(e.Dimensions)
}

func (e *Edge) isComplete() bool {
	return e.ClientService != "" && e.ServerService != ""
}

type Callback func(e *Edge)

type store struct {
	mtx        sync.Mutex
	l          *list.List
	m          map[string]*list.Element
	onComplete Callback
	ttl        time.Duration
	maxItems   int
}

var edgePool = sync.Pool{
	New: func() any {
		return &Edge{Dimensions: make(map[string]string)}
	},
}

func (s *store) grabEdge(key string) *Edge {
	e := edgePool.Get().(*Edge)
	resetEdge(e)
	e.key = key
	e.expiration = time.Now().Add(s.ttl).Unix()
	return e
}

func (s *store) returnEdge(e *Edge) {
	edgePool.Put(e)
}

// UpsertEdge finds or creates the edge for key and applies update to it.
func (s *store) UpsertEdge(key string, update Callback) (bool, error) {
	s.mtx.Lock()
	defer s.mtx.Unlock()

	if el, ok := s.m[key]; ok {
		e := el.Value.(*Edge)
		update(e)
		if e.isComplete() {
			s.onComplete(e)
			delete(s.m, key)
			s.l.Remove(el)
			s.returnEdge(e)
		}
		return false, nil
	}

	e := s.grabEdge(key)
	update(e)
	if e.isComplete() {
		s.onComplete(e)
		s.returnEdge(e)
		return true, nil
	}
	if s.l.Len() >= s.maxItems {
		s.returnEdge(e)
		return false, ErrTooManyItems
	}
	s.m[key] = s.l.PushBack(e)
	return true, nil
}
