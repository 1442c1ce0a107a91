// Package fixed is the fix of cockroachdb/pebble commit c2dc3de
// (https://github.com/cockroachdb/pebble/commit/c2dc3de22e9139c506bddd81cb21332a9bf6893b):
// when the merging iterator is bypassed, closePointIterOnce records that
// closing i.iter already closes the point iterator, and Close skips the
// second Close.
package fixed

import "sync"

type internalIterator interface {
	Next() ([]byte, bool)
	Close() error
}

// sstIter is an sstable iterator; Close releases it to its pool.
type sstIter struct {
	kvs [][]byte
	pos int
}

var sstIterPool = sync.Pool{New: func() any { return &sstIter{} }}

func newSSTIter(kvs [][]byte) *sstIter {
	i := sstIterPool.Get().(*sstIter)
	i.kvs, i.pos = kvs, 0
	return i
}

func (i *sstIter) Next() ([]byte, bool) {
	if i.pos >= len(i.kvs) {
		return nil, false
	}
	kv := i.kvs[i.pos]
	i.pos++
	return kv, true
}

func (i *sstIter) Close() error {
	i.kvs, i.pos = nil, 0
	sstIterPool.Put(i)
	return nil
}

// mergingIter merges several levels; closing it twice is allowed.
type mergingIter struct {
	levels []internalIterator
	cur    int
	closed bool
}

func (m *mergingIter) Next() ([]byte, bool) {
	for m.cur < len(m.levels) {
		if kv, ok := m.levels[m.cur].Next(); ok {
			return kv, true
		}
		m.cur++
	}
	return nil, false
}

func (m *mergingIter) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	var err error
	for _, l := range m.levels {
		err = firstError(err, l.Close())
	}
	return err
}

func firstError(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

type Iterator struct {
	iter      internalIterator
	pointIter internalIterator
	err       error
	// closePointIterOnce is set when i.iter is the point iterator itself,
	// so closing i.iter closes it and it must not be closed again.
	closePointIterOnce bool
}

func createExternalPointIter(it *Iterator, files [][][]byte) internalIterator {
	levels := make([]internalIterator, 0, len(files))
	for _, f := range files {
		levels = append(levels, newSSTIter(f))
	}
	if len(levels) == 1 {
		// Bypassing the merging iterator: the sstable iterator releases
		// itself to a pool on Close and must be closed once.
		it.closePointIterOnce = true
		return levels[0]
	}
	return &mergingIter{levels: levels}
}

// NewExternalIter opens an iterator over the given sstables.
func NewExternalIter(files [][][]byte) *Iterator {
	it := &Iterator{}
	pointIter := createExternalPointIter(it, files)
	it.pointIter = pointIter
	it.iter = pointIter
	return it
}

func (i *Iterator) Next() ([]byte, bool) { return i.iter.Next() }

// Close closes the iterator and returns any accumulated error.
func (i *Iterator) Close() error {
	if i.iter != nil {
		i.err = firstError(i.err, i.iter.Close())

		// Closing i.iter did not necessarily close the point iterator;
		// close it explicitly unless it is the same iterator.
		if i.pointIter != nil && !i.closePointIterOnce {
			i.err = firstError(i.err, i.pointIter.Close())
		}
	}
	err := i.err
	i.iter, i.pointIter, i.err = nil, nil, nil
	return err
}
