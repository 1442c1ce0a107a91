// Package bug reproduces the shape of pingcap/tidb#21461
// (https://github.com/pingcap/tidb/pull/21461): ExecRestrictedSQLWithContext
// borrows an internal session from the domain's system session pool, copies a
// few settings of the calling session onto it and registers a deferred closure
// that undoes them. The deferred Put that returns the session to the
// pool was registered after that closure, so (defers run last-in first-out)
// the session went back to the pool first and the closure then wrote its
// session variables while another goroutine may already have taken it.
// Check: useafterput (the deferred closure writes the session after the deferred
// Put has returned it), reported at its first write.
// Fixed twin: the Put is deferred right after Get, so it runs after every
// restoring write.
package bug

import (
	"context"
	"errors"
	"sync"
)

type Resource interface {
	Close()
}

type Factory func() (Resource, error)

// sessionPool is the domain's pool of internal sessions.
type sessionPool struct {
	resources chan Resource
	factory   Factory
	mu        struct {
		sync.RWMutex
		closed bool
	}
}

func newSessionPool(capacity int, factory Factory) *sessionPool {
	return &sessionPool{
		resources: make(chan Resource, capacity),
		factory:   factory,
	}
}

func (p *sessionPool) Get() (resource Resource, err error) {
	var ok bool
	select {
	case resource, ok = <-p.resources:
		if !ok {
			err = errors.New("session pool closed")
		}
	default:
		resource, err = p.factory()
	}
	return
}

func (p *sessionPool) Put(resource Resource) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.mu.closed {
		resource.Close()
		return
	}
	select {
	case p.resources <- resource:
	default:
		resource.Close()
	}
}

type inspectionCache map[string][]string

type SessionVars struct {
	InspectionTableCache         inspectionCache
	OptimizerUseInvisibleIndexes bool
	SnapshotTS                   uint64
	SnapshotInfoschema           interface{}
	InRestrictedSQL              bool
}

type Row []string

type session struct {
	sessionVars *SessionVars
	pool        *sessionPool
	run         func(ctx context.Context, vars *SessionVars, sql string) ([]Row, error)
}

func (s *session) Close() {}

func (s *session) sysSessionPool() *sessionPool { return s.pool }

func (s *session) ExecRestrictedSQLWithContext(ctx context.Context, sql string) ([]Row, error) {
	// Use a special session to execute the sql.
	tmp, err := s.sysSessionPool().Get()
	if err != nil {
		return nil, err
	}
	defer s.sysSessionPool().Put(tmp)
	se := tmp.(*session)

	// The special session shares the inspection cache of the current session
	// when the current session is in inspection mode, and its snapshot.
	if cache := s.sessionVars.InspectionTableCache; cache != nil {
		se.sessionVars.InspectionTableCache = cache
	}
	if ok := s.sessionVars.OptimizerUseInvisibleIndexes; ok {
		se.sessionVars.OptimizerUseInvisibleIndexes = true
	}
	if snapshot := s.sessionVars.SnapshotTS; snapshot != 0 {
		se.sessionVars.SnapshotTS = snapshot
		se.sessionVars.SnapshotInfoschema = s.sessionVars.SnapshotInfoschema
	}
	defer func() {
		se.sessionVars.InspectionTableCache = nil
		se.sessionVars.OptimizerUseInvisibleIndexes = false
		se.sessionVars.SnapshotTS = 0
		se.sessionVars.SnapshotInfoschema = nil
	}()

	se.sessionVars.InRestrictedSQL = true
	rows, err := se.run(ctx, se.sessionVars, sql)
	if err != nil {
		return nil, err
	}
	return rows, nil
}
