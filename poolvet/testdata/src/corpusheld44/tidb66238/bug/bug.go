// Package bug reproduces the shape of pingcap/tidb#66238
// (https://github.com/pingcap/tidb/issues/66238): ALTER USER and SET PASSWORD
// borrow a system session from the domain's SysSessionPool and run
// "SET tx_isolation = 'READ-COMMITTED'" on it before updating mysql.user in a
// pessimistic transaction. ReleaseSysSession only rolls back the transaction
// before putting the session back, so the session-scope variable survives and
// every later internal SQL that borrows that session runs under READ-COMMITTED.
// Check: noreset (system session put back still carrying the session variables
// set by its previous user), reported at the Put in ReleaseSysSession.
package bug

import (
	"context"
	"errors"
	"strings"
	"sync"
)

type Resource interface {
	Close()
}

type Factory func() (Resource, error)

type sessionPool struct {
	resources chan Resource
	factory   Factory
	mu        struct {
		sync.RWMutex
		closed bool
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

const defaultTxIsolation = "REPEATABLE-READ"

type SessionVars struct {
	systems map[string]string
	inTxn   bool
}

// sysSession is an internal session; ExecuteInternal understands just enough
// SQL for this example.
type sysSession struct {
	vars *SessionVars
	exec func(ctx context.Context, vars *SessionVars, sql string) error
}

func (s *sysSession) Close() {}

func (s *sysSession) ExecuteInternal(ctx context.Context, sql string) error {
	switch {
	case strings.HasPrefix(sql, "SET "):
		name, value, ok := strings.Cut(strings.TrimPrefix(sql, "SET "), "=")
		if !ok {
			return errors.New("bad SET statement")
		}
		s.vars.systems[strings.TrimSpace(name)] = strings.Trim(strings.TrimSpace(value), "'")
		return nil
	case strings.HasPrefix(sql, "BEGIN"):
		s.vars.inTxn = true
		return nil
	case sql == "COMMIT", sql == "rollback":
		s.vars.inTxn = false
		return nil
	}
	return s.exec(ctx, s.vars, sql)
}

type Domain struct {
	sysSessionPool *sessionPool
}

type BaseExecutor struct {
	dom *Domain
}

// GetSysSession gets a system session from the domain's pool.
func (e *BaseExecutor) GetSysSession() (*sysSession, error) {
	res, err := e.dom.sysSessionPool.Get()
	if err != nil {
		return nil, err
	}
	return res.(*sysSession), nil
}

// ReleaseSysSession rolls back whatever the session did and returns it.
func (e *BaseExecutor) ReleaseSysSession(ctx context.Context, sctx *sysSession) {
	if sctx == nil {
		return
	}
	if err := sctx.ExecuteInternal(ctx, "rollback"); err != nil {
		sctx.Close()
		return
	}
	e.dom.sysSessionPool.Put(sctx) // want `noreset`
}

type SimpleExec struct {
	BaseExecutor
}

func (e *SimpleExec) executeSetPwd(ctx context.Context, user, host, authString string) (err error) {
	sysSession, err := e.GetSysSession()
	if err != nil {
		return err
	}
	defer e.ReleaseSysSession(ctx, sysSession)

	// Use READ-COMMITTED so the pessimistic update sees the latest mysql.user row.
	if err := sysSession.ExecuteInternal(ctx, "SET tx_isolation = 'READ-COMMITTED'"); err != nil {
		return err
	}
	if err := sysSession.ExecuteInternal(ctx, "BEGIN PESSIMISTIC"); err != nil {
		return err
	}
	stmt := "UPDATE mysql.user SET authentication_string='" + authString + "' WHERE User='" + user + "' AND Host='" + host + "'"
	if err := sysSession.ExecuteInternal(ctx, stmt); err != nil {
		_ = sysSession.ExecuteInternal(ctx, "rollback")
		return err
	}
	return sysSession.ExecuteInternal(ctx, "COMMIT")
}
