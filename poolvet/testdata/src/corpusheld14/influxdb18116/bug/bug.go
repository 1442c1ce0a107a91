// Package bug reproduces the shape of influxdata/influxdb#18116
// (https://github.com/influxdata/influxdb/pull/18116, commit 342c3c2): the
// no-content result encoders walked each table with tbl.Do and released the
// column reader inside the callback, but Table.Do already releases every
// reader once the callback returns. The reader's reference was dropped
// twice, which freed a buffered table another consumer (to()) still held.
//
// Check: doubleput (the callback releases the reader it is given; Do
// releases it again after the callback returns; want at Do's release, the
// second one. Release is reference counted and hands the reader back to the
// pool when the count reaches zero.)
package bug

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
		cr.Release() // want `doubleput`
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
			cr.Release()
			return nil
		}); err != nil {
			return 0, err
		}
	}
	return 0, nil
}
