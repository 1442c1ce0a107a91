package doubleput

import (
	"sync"
	"sync/atomic"
)

// A function that calls a callback with an object and then releases it,
// and a caller whose callback releases it too (influxdata/influxdb#18116).
var colPool = sync.Pool{New: func() any { return new(colReader) }}

type colReader struct {
	refs int32
	rows int
}

func (cr *colReader) release() {
	if atomic.AddInt32(&cr.refs, -1) != 0 {
		return
	}
	cr.rows = 0
	colPool.Put(cr)
}

type table struct{ readers []*colReader }

func (t *table) do(f func(*colReader) error) error {
	for _, cr := range t.readers {
		err := f(cr)
		cr.release() // want `cr is put into the pool here after the call at line 29 gave it to f, but encodeNone \(line 39\) passes there a function that puts it too`
		if err != nil {
			return err
		}
	}
	return nil
}

func encodeNone(t *table) error {
	return t.do(func(cr *colReader) error {
		cr.release()
		return nil
	})
}

// Silent: the callbacks of doFixed's callers only read.
type table2 struct{ readers []*colReader }

func (t *table2) doFixed(f func(*colReader) error) error {
	for _, cr := range t.readers {
		err := f(cr)
		cr.release()
		if err != nil {
			return err
		}
	}
	return nil
}

func countRows(t *table2) (n int) {
	_ = t.doFixed(func(cr *colReader) error {
		n += cr.rows
		return nil
	})
	return n
}

// Silent: a callback that takes over the reader, for a function that
// does not release it after the call.
func each(rs []*colReader, f func(*colReader)) {
	for _, cr := range rs {
		f(cr)
	}
}

func releaseEach(rs []*colReader) {
	each(rs, func(cr *colReader) { cr.release() })
}
