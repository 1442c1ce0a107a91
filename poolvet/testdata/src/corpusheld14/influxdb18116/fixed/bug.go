// Package fixed is the fix of influxdata/influxdb#18116
// (https://github.com/influxdata/influxdb/pull/18116, commit 342c3c2): the
// callbacks no longer release the column reader; Table.Do is its only
// releaser.
package fixed

import (
	"io"
	"sync"
	"sync/atomic"
)

type ColReader struct {
	refs int32
	rows int
}

var readerPool = sync.Pool{New: func() any { return new(ColReader) }}

// newColReader returns a reader shared by the given number of consumers.
func newColReader(rows int, consumers int32) *ColReader {
	cr := readerPool.Get().(*ColReader)
	cr.refs = consumers
	cr.rows = rows
	return cr
}

func (cr *ColReader) Len() int { return cr.rows }

func (cr *ColReader) Release() {
	if atomic.AddInt32(&cr.refs, -1) != 0 {
		return
	}
	cr.rows = 0
	readerPool.Put(cr)
}

type Table struct {
	readers []*ColReader
}

// Do calls f with each column reader and releases the reader afterwards;
// f must not release it.
func (t *Table) Do(f func(cr *ColReader) error) error {
	for _, cr := range t.readers {
		err := f(cr)
		cr.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// NoContentEncoder consumes the results without writing them.
type NoContentEncoder struct{}

func (e *NoContentEncoder) Encode(w io.Writer, tables []*Table) (int64, error) {
	for _, tbl := range tables {
		if err := tbl.Do(func(cr *ColReader) error {
			return nil
		}); err != nil {
			return 0, err
		}
	}
	return 0, nil
}
