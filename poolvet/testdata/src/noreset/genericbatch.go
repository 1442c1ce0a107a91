package noreset

import "sync"

// A generic exporter pools *[]T batch buffers and truncates them without
// clearing: with T a pointer type in this package, the elements keep the
// exported items alive (wundergraph/cosmo#2990). An exporter only ever
// instantiated with plain numbers holds nothing.

type batchExporter[T any] struct {
	pool  *sync.Pool
	limit int
}

func newBatchExporter[T any](limit int) *batchExporter[T] {
	return &batchExporter[T]{limit: limit, pool: &sync.Pool{New: func() any {
		b := make([]T, 0, limit)
		return &b
	}}}
}

func (e *batchExporter[T]) get() []T {
	return (*e.pool.Get().(*[]T))[:0]
}

func (e *batchExporter[T]) put(b []T) {
	if cap(b) > e.limit {
		return
	}
	b = b[:0]
	e.pool.Put(&b) // want `noreset`
}

func (e *batchExporter[T]) putCleared(b []T) {
	if cap(b) > e.limit {
		return
	}
	clear(b)
	b = b[:0]
	e.pool.Put(&b)
}

type usageRecord struct{ tenant string }

func newUsageExporter() *batchExporter[*usageRecord] {
	return newBatchExporter[*usageRecord](100)
}

type countExporter[T any] struct {
	pool  *sync.Pool
	limit int
}

func (e *countExporter[T]) put(b []T) {
	if cap(b) > e.limit {
		return
	}
	b = b[:0]
	e.pool.Put(&b)
}

func (e *countExporter[T]) get() []T {
	return (*e.pool.Get().(*[]T))[:0]
}

var counts = &countExporter[int]{pool: &sync.Pool{New: func() any { return new([]int) }}, limit: 10}
