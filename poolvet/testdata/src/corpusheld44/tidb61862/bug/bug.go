// Package bug reproduces the shape of pingcap/tidb#61862
// (https://github.com/pingcap/tidb/issues/61862): the TTL workers borrow a
// session from a session pool through getSession, which wraps it in a
// ttl session whose close callback restores the variables the TTL job changed
// and puts the resource back. When a TTL scan is cancelled the session's SQL
// killer gets a kill signal (KillStmt); the close callback does not clear that
// signal, so the killed session goes back to the pool and the next user's
// statements are interrupted right away.
// Check: noreset (session put back with the kill signal of its previous use
// still set), reported at the Put in the close callback.
package bug

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
)

type Resource interface {
	Close()
}

type sessionPool interface {
	Get() (Resource, error)
	Put(Resource)
}

const queryInterrupted uint32 = 1

type SQLKiller struct {
	Signal uint32
}

func (k *SQLKiller) SendKillSignal(reason uint32) {
	atomic.CompareAndSwapUint32(&k.Signal, 0, reason)
}

func (k *SQLKiller) HandleSignal() error {
	if atomic.LoadUint32(&k.Signal) == queryInterrupted {
		return errors.New("query execution was interrupted")
	}
	return nil
}

func (k *SQLKiller) Reset() {
	atomic.StoreUint32(&k.Signal, 0)
}

type SessionVars struct {
	RetryLimit int64
	TimeZone   string
	SQLKiller  SQLKiller
}

// sessionCtx is the pooled internal session.
type sessionCtx struct {
	vars *SessionVars
	run  func(ctx context.Context, sql string) ([][]string, error)
}

func (s *sessionCtx) Close() {}

func (s *sessionCtx) GetSessionVars() *SessionVars { return s.vars }

func (s *sessionCtx) ExecuteInternal(ctx context.Context, sql string) ([][]string, error) {
	if strings.HasPrefix(sql, "set tidb_retry_limit=") {
		// SET statements do not look at the killer.
		_, err := fmt.Sscanf(sql, "set tidb_retry_limit=%d", &s.vars.RetryLimit)
		return nil, err
	}
	if err := s.vars.SQLKiller.HandleSignal(); err != nil {
		return nil, err
	}
	return s.run(ctx, sql)
}

// Session is the TTL view of a pooled session.
type Session struct {
	sctx    *sessionCtx
	closeFn func(*Session)
}

func (s *Session) ExecuteSQL(ctx context.Context, sql string) ([][]string, error) {
	return s.sctx.ExecuteInternal(ctx, sql)
}

// KillStmt interrupts the statement running on the session.
func (s *Session) KillStmt() {
	s.sctx.GetSessionVars().SQLKiller.SendKillSignal(queryInterrupted)
}

func (s *Session) Close() {
	if s.closeFn != nil {
		s.closeFn(s)
		s.closeFn = nil
	}
}

func getSession(pool sessionPool) (*Session, error) {
	resource, err := pool.Get()
	if err != nil {
		return nil, err
	}
	sctx, ok := resource.(*sessionCtx)
	if !ok {
		pool.Put(resource)
		return nil, fmt.Errorf("%T cannot be casted to sessionCtx", resource)
	}

	originalRetryLimit := sctx.GetSessionVars().RetryLimit
	se := &Session{
		sctx: sctx,
		closeFn: func(se *Session) {
			if _, err := se.ExecuteSQL(context.Background(), fmt.Sprintf("set tidb_retry_limit=%d", originalRetryLimit)); err != nil {
				// The session cannot be restored: drop it instead of pooling it.
				resource.Close()
				return
			}
			pool.Put(resource) // want `noreset`
		},
	}

	if _, err := se.ExecuteSQL(context.Background(), "set tidb_retry_limit=0"); err != nil {
		se.Close()
		return nil, err
	}
	return se, nil
}

// scanTask runs one TTL scan and is cancelled through KillStmt.
func scanTask(ctx context.Context, pool sessionPool, sql string) ([][]string, error) {
	se, err := getSession(pool)
	if err != nil {
		return nil, err
	}
	defer se.Close()

	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			se.KillStmt()
		case <-done:
		}
	}()
	return se.ExecuteSQL(ctx, sql)
}
