// Package bug reproduces the shape of gocql/gocql#1684
// (https://github.com/gocql/gocql/pull/1684, fixing issue #1315; commit 47d05f0d7
// "query_executor: Fixed race between Query.Release() and speculative executions"):
// Query objects come from queryPool and go back through Query.Release (reset + Put). With
// speculative execution enabled, executeQuery starts the main execution and further
// speculative ones as goroutines (go q.run(ctx, qry, ...)) and returns the first result; the
// other goroutines keep running with qry. The documented usage qry.Exec(); qry.Release()
// then zeroes the Query and puts it back while those goroutines still call qry.attempt,
// which dereferences q.metrics (nil after reset) or a Query already reused by someone else.
// The fix adds a reference count: each execution goroutine borrows the query and the last
// release does the reset and Put.
// Check: useafterput (fixed: the goroutines hold a reference; Put happens at refcount 0).
package bug

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

var ErrNoConnections = errors.New("gocql: no hosts available in the pool")

type HostInfo struct{ addr string }

type Conn struct{ host *HostInfo }

type Iter struct {
	err     error
	numRows int
	host    *HostInfo
}

func (iter *Iter) Close() error { return iter.err }

type queryMetrics struct {
	mu  sync.Mutex
	m   map[string]int
	att int
}

func (qm *queryMetrics) attempt(addn int, latency time.Duration, host *HostInfo) int {
	qm.mu.Lock()
	defer qm.mu.Unlock()
	qm.att += addn
	qm.m[host.addr]++
	return qm.att
}

type SpeculativeExecutionPolicy interface {
	Attempts() int
	Delay() time.Duration
}

type NextHost func() *HostInfo

type ExecutableQuery interface {
	borrowForExecution()    // keeps the query alive for one execution goroutine
	releaseAfterExecution() // called when that goroutine is done
	execute(ctx context.Context, conn *Conn) *Iter
	attempt(end, start time.Time, iter *Iter, host *HostInfo)
	speculativeExecutionPolicy() SpeculativeExecutionPolicy
	IsIdempotent() bool
	Context() context.Context
}

type Session struct {
	executor *queryExecutor
	spec     SpeculativeExecutionPolicy
}

var queryPool = &sync.Pool{
	New: func() interface{} {
		return &Query{refCount: 1}
	},
}

type Query struct {
	stmt       string
	values     []interface{}
	session    *Session
	context    context.Context
	idempotent bool
	spec       SpeculativeExecutionPolicy
	metrics    *queryMetrics
	refCount   uint32
}

func (s *Session) Query(stmt string, values ...interface{}) *Query {
	qry := queryPool.Get().(*Query)
	qry.session = s
	qry.stmt = stmt
	qry.values = values
	qry.spec = s.spec
	qry.metrics = &queryMetrics{m: make(map[string]int)}
	return qry
}

func (q *Query) Idempotent(v bool) *Query { q.idempotent = v; return q }

func (q *Query) Context() context.Context {
	if q.context == nil {
		return context.Background()
	}
	return q.context
}

func (q *Query) IsIdempotent() bool { return q.idempotent }

func (q *Query) speculativeExecutionPolicy() SpeculativeExecutionPolicy { return q.spec }

func (q *Query) execute(ctx context.Context, conn *Conn) *Iter {
	return &Iter{host: conn.host}
}

func (q *Query) attempt(end, start time.Time, iter *Iter, host *HostInfo) {
	q.metrics.attempt(1, end.Sub(start), host)
}

// Exec executes the query without returning any rows.
func (q *Query) Exec() error {
	iter, err := q.session.executor.executeQuery(q)
	if err != nil {
		return err
	}
	return iter.Close()
}

// Release releases a query back into a pool of queries. Released Queries
// cannot be reused.
//
// Example:
//
//	qry := session.Query("SELECT * FROM my_table")
//	qry.Exec()
//	qry.Release()
func (q *Query) Release() {
	q.decRefCount()
}

// reset zeroes out all fields of a query so that it can be safely pooled.
func (q *Query) reset() {
	*q = Query{refCount: 1}
}

func (q *Query) incRefCount() {
	atomic.AddUint32(&q.refCount, 1)
}

func (q *Query) decRefCount() {
	if res := atomic.AddUint32(&q.refCount, ^uint32(0)); res == 0 {
		q.reset()
		queryPool.Put(q)
	}
}

func (q *Query) borrowForExecution() { q.incRefCount() }

func (q *Query) releaseAfterExecution() { q.decRefCount() }

type queryExecutor struct {
	pick func(ExecutableQuery) NextHost
}

func (q *queryExecutor) attemptQuery(ctx context.Context, qry ExecutableQuery, conn *Conn) *Iter {
	start := time.Now()
	iter := qry.execute(ctx, conn)
	end := time.Now()
	qry.attempt(end, start, iter, conn.host)
	return iter
}

func (q *queryExecutor) speculate(ctx context.Context, qry ExecutableQuery, sp SpeculativeExecutionPolicy,
	hostIter NextHost, results chan *Iter) *Iter {
	ticker := time.NewTicker(sp.Delay())
	defer ticker.Stop()

	for i := 0; i < sp.Attempts(); i++ {
		select {
		case <-ticker.C:
			qry.borrowForExecution()
			go q.run(ctx, qry, hostIter, results)
		case <-ctx.Done():
			return &Iter{err: ctx.Err()}
		case iter := <-results:
			return iter
		}
	}
	return nil
}

func (q *queryExecutor) executeQuery(qry ExecutableQuery) (*Iter, error) {
	hostIter := q.pick(qry)

	sp := qry.speculativeExecutionPolicy()
	if !qry.IsIdempotent() || sp == nil || sp.Attempts() == 0 {
		return q.do(qry.Context(), qry, hostIter), nil
	}

	var mu sync.Mutex
	origHostIter := hostIter
	hostIter = func() *HostInfo {
		mu.Lock()
		defer mu.Unlock()
		return origHostIter()
	}

	ctx, cancel := context.WithCancel(qry.Context())
	defer cancel()

	results := make(chan *Iter, 1)

	// Launch the main execution
	qry.borrowForExecution()
	go q.run(ctx, qry, hostIter, results)

	// The speculative executions are launched in addition to the main one.
	if iter := q.speculate(ctx, qry, sp, hostIter, results); iter != nil {
		return iter, nil
	}

	select {
	case iter := <-results:
		return iter, nil
	case <-ctx.Done():
		return &Iter{err: ctx.Err()}, nil
	}
}

func (q *queryExecutor) do(ctx context.Context, qry ExecutableQuery, hostIter NextHost) *Iter {
	for host := hostIter(); host != nil; host = hostIter() {
		iter := q.attemptQuery(ctx, qry, &Conn{host: host})
		if iter.err == nil {
			return iter
		}
	}
	return &Iter{err: ErrNoConnections}
}

func (q *queryExecutor) run(ctx context.Context, qry ExecutableQuery, hostIter NextHost, results chan<- *Iter) {
	select {
	case results <- q.do(ctx, qry, hostIter):
	case <-ctx.Done():
	}
	qry.releaseAfterExecution()
}

// insertEvent follows the documented pattern: execute, then release.
func insertEvent(s *Session, id string) error {
	qry := s.Query(`INSERT INTO events (id) VALUES (?)`, id).Idempotent(true)
	err := qry.Exec()
	qry.Release()
	return err
}
