// Package bug reproduces the shape of uptrace/bun#36
// (https://github.com/uptrace/bun/issues/36, fixed by commit
// https://github.com/uptrace/bun/commit/25f81c53ce2290b3477bcc960b8c4dc0a565fe14,
// "Don't reuse query bytes since some drivers may use it"): query builders rendered
// the SQL text into a byte slice taken from a sync.Pool, turned it into a string
// with an unsafe zero-copy conversion, passed that string to the database
// connection and returned the byte slice to the pool in a deferred call. A driver
// that keeps the query string (here: a prepared-statement cache keyed by the SQL
// text) then holds a string whose bytes are rewritten by the next query that takes
// the same slice from the pool. The fix stops pooling the query bytes.
//
// Check: useafterput (a zero-copy view of the pooled bytes is handed to the
// connection, which keeps it past the deferred Put; report at the hand-off).
package bug

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"unsafe"
)

// String converts a byte slice to a string without copying.
func String(b []byte) string {
	return *(*string)(unsafe.Pointer(&b))
}

func makeQueryBytes() []byte {
	return make([]byte, 0, 4096)
}

type Result interface {
	RowsAffected() (int64, error)
}

type result struct {
	n int64
}

func (r result) RowsAffected() (int64, error) { return r.n, nil }

// IConn is what a query runs on (a *sql.DB, *sql.Conn or *sql.Tx in bun).
type IConn interface {
	ExecContext(ctx context.Context, query string) (Result, error)
}

type stmt struct {
	query string
	id    int
}

// cachingConn stands in for a driver that prepares statements and caches them by
// their SQL text.
type cachingConn struct {
	mu    sync.Mutex
	stmts map[string]*stmt
}

func (c *cachingConn) ExecContext(ctx context.Context, query string) (Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.stmts[query]
	if !ok {
		st = &stmt{query: query, id: len(c.stmts) + 1}
		c.stmts[query] = st
	}
	return result{n: int64(st.id)}, nil
}

type DB struct {
	conn IConn
}

type queryHook interface {
	BeforeQuery(ctx context.Context, query string) context.Context
}

type baseQuery struct {
	db    *DB
	conn  IConn
	hooks []queryHook
}

func (q *baseQuery) exec(ctx context.Context, query string) (Result, error) {
	for _, h := range q.hooks {
		ctx = h.BeforeQuery(ctx, query)
	}
	return q.conn.ExecContext(ctx, query)
}

type UpdateQuery struct {
	baseQuery
	table string
	set   map[string]int
	where string
}

func (q *UpdateQuery) AppendQuery(b []byte) ([]byte, error) {
	if q.table == "" {
		return nil, errors.New("bun: UpdateQuery requires a table")
	}
	b = append(b, "UPDATE "...)
	b = append(b, q.table...)
	b = append(b, " SET "...)
	first := true
	for col, v := range q.set {
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = append(b, col...)
		b = append(b, " = "...)
		b = strconv.AppendInt(b, int64(v), 10)
	}
	if q.where != "" {
		b = append(b, " WHERE "...)
		b = append(b, q.where...)
	}
	return b, nil
}

func (q *UpdateQuery) Exec(ctx context.Context) (Result, error) {
	queryBytes, err := q.AppendQuery(makeQueryBytes())
	if err != nil {
		return nil, err
	}

	query := String(queryBytes)

	res, err := q.exec(ctx, query)
	if err != nil {
		return nil, err
	}
	return res, nil
}
