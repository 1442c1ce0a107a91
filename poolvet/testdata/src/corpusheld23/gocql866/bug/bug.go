// Package bug reproduces the shape of gocql/gocql#866
// (https://github.com/gocql/gocql/pull/866, commit 8dd0437 "reset the context
// when calling Query.reset"): Session.Query takes a *Query from queryPool and
// fills in the statement and session defaults; Query.Release calls reset, which
// zeroes a long list of fields, and puts the query back. reset forgot the
// context set by WithContext, and Session.Query never sets it, so the next
// query handed out by the pool silently runs under a previous caller's
// (possibly cancelled or expired) context. The fix adds q.context = nil.
// Check: noreset (the report belongs on the Put in Query.Release).
package bug

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Consistency is a CQL consistency level.
type Consistency uint16

// RetryPolicy decides whether to retry a query.
type RetryPolicy interface {
	Attempt(q *Query) bool
}

// Tracer receives query traces.
type Tracer interface {
	Trace(traceID []byte)
}

// QueryInfo describes a prepared statement.
type QueryInfo struct {
	ID   []byte
	Args []string
}

// Session is a connection to the cluster.
type Session struct {
	mu       sync.RWMutex
	cons     Consistency
	pageSize int
	prefetch float64
	trace    Tracer
	rt       RetryPolicy
}

var queryPool = &sync.Pool{
	New: func() interface{} {
		return new(Query)
	},
}

// Query is a single CQL statement bound to a session.
type Query struct {
	stmt                string
	values              []interface{}
	cons                Consistency
	pageSize            int
	routingKey          []byte
	pageState           []byte
	prefetch            float64
	trace               Tracer
	session             *Session
	rt                  RetryPolicy
	binding             func(q *QueryInfo) ([]interface{}, error)
	attempts            int
	totalLatency        int64
	defaultTimestamp    bool
	disableSkipMetadata bool
	context             context.Context

	disableAutoPage bool
}

// Query generates a new query object from the pool.
func (s *Session) Query(stmt string, values ...interface{}) *Query {
	s.mu.RLock()
	qry := queryPool.Get().(*Query)
	qry.stmt = stmt
	qry.values = values
	qry.cons = s.cons
	qry.session = s
	qry.pageSize = s.pageSize
	qry.trace = s.trace
	qry.prefetch = s.prefetch
	qry.rt = s.rt
	s.mu.RUnlock()
	return qry
}

// WithContext sets the context the query runs under.
func (q *Query) WithContext(ctx context.Context) *Query {
	q.context = ctx
	return q
}

// Exec runs the query.
func (q *Query) Exec() error {
	ctx := q.context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if q.session == nil {
		return errors.New("query without session")
	}
	start := time.Now()
	q.attempts++
	q.totalLatency += time.Since(start).Nanoseconds()
	return nil
}

// Release releases a query back into the pool of queries. Released queries
// cannot be reused.
func (q *Query) Release() {
	q.reset()
	queryPool.Put(q) // want `noreset`
}

// reset zeroes out all fields of a query so that it can be safely pooled.
func (q *Query) reset() {
	q.stmt = ""
	q.values = nil
	q.cons = 0
	q.pageSize = 0
	q.routingKey = nil
	q.pageState = nil
	q.prefetch = 0
	q.trace = nil
	q.session = nil
	q.rt = nil
	q.binding = nil
	q.attempts = 0
	q.totalLatency = 0
	q.defaultTimestamp = false
	q.disableSkipMetadata = false
	q.disableAutoPage = false
}
