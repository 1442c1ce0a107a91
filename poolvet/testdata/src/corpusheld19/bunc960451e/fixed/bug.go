// Package bug reproduces the shape of uptrace/bun commit c960451e
// (https://github.com/uptrace/bun/commit/c960451ec7c8a0c0e17afaa43ccb976a01bd5b78
// "Don't reuse query buffer if it gets too large"): every query builder's
// Exec takes a *byteSlice from byteSlicePool, appends the SQL text into it
// (AppendQuery may reallocate), stores the grown slice back with
// bs.b = queryBytes and defers putByteSlice, which truncates and pools it.
// One bulk INSERT of many megabytes therefore left a buffer of that size in
// the pool for all later queries. The fix stores the grown slice back only if
// it is under 1 MiB (byteSlice.update).
//
// Check: unbounded (putByteSlice puts the *byteSlice whose b grew without bound).
package bug

import (
	"context"
	"strconv"
	"sync"
	"unsafe"
)

var byteSlicePool = sync.Pool{
	New: func() interface{} {
		return &byteSlice{
			b: make([]byte, 0, 4096),
		}
	},
}

type byteSlice struct {
	b []byte
}

func (bs *byteSlice) update(b []byte) {
	const limit = 1 << 20 // 1MB
	if len(b) < limit {
		bs.b = b
	}
}

func getByteSlice() *byteSlice {
	return byteSlicePool.Get().(*byteSlice)
}

func putByteSlice(b *byteSlice) {
	b.b = b.b[:0]
	byteSlicePool.Put(b)
}

// bytesToString views b as a string without copying (internal.String).
func bytesToString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

type Result struct{ RowsAffected int64 }

type DB struct {
	exec func(ctx context.Context, query string) (Result, error)
}

type baseQuery struct {
	db    *DB
	table string
}

func (q *baseQuery) execQuery(ctx context.Context, query string) (Result, error) {
	return q.db.exec(ctx, query)
}

// InsertQuery inserts rows of values.
type InsertQuery struct {
	baseQuery
	rows [][]string
}

func (q *InsertQuery) AppendQuery(b []byte) ([]byte, error) {
	b = append(b, "INSERT INTO "...)
	b = append(b, q.table...)
	b = append(b, " VALUES "...)
	for i, row := range q.rows {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '(')
		for j, v := range row {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendQuote(b, v)
		}
		b = append(b, ')')
	}
	return b, nil
}

func (q *InsertQuery) Exec(ctx context.Context) (res Result, err error) {
	bs := getByteSlice()
	defer putByteSlice(bs)

	queryBytes, err := q.AppendQuery(bs.b)
	if err != nil {
		return res, err
	}

	bs.update(queryBytes)
	query := bytesToString(queryBytes)

	return q.execQuery(ctx, query)
}

// DeleteQuery deletes rows by primary key.
type DeleteQuery struct {
	baseQuery
	ids []int64
}

func (q *DeleteQuery) AppendQuery(b []byte) ([]byte, error) {
	b = append(b, "DELETE FROM "...)
	b = append(b, q.table...)
	b = append(b, " WHERE id IN ("...)
	for i, id := range q.ids {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return append(b, ')'), nil
}

func (q *DeleteQuery) Exec(ctx context.Context) (res Result, err error) {
	bs := getByteSlice()
	defer putByteSlice(bs)

	queryBytes, err := q.AppendQuery(bs.b)
	if err != nil {
		return res, err
	}

	bs.update(queryBytes)
	query := bytesToString(queryBytes)

	return q.execQuery(ctx, query)
}
