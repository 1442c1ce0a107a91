// Package bug reproduces the shape of cockroachdb/pebble commit c2dc3de
// (https://github.com/cockroachdb/pebble/commit/c2dc3de22e9139c506bddd81cb21332a9bf6893b,
// "*: don't close pointIter twice if bypassing merging iter"): an external
// Iterator keeps its point iterator both as i.iter and as i.pointIter, and
// Iterator.Close closes both. That is harmless when the point iterator is a
// merging iterator, whose Close is idempotent, but with a single file the
// merging iterator is bypassed and both fields hold the sstable iterator
// itself, whose Close releases it into a sync.Pool: it went back twice and
// was later handed to two users at once.
//
// Check: doubleput (the same pooled iterator reached through two fields of
// the Iterator, both closed by Iterator.Close; reported at the second
// Close, i.pointIter.Close()).
package bug

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
}

func createExternalPointIter(files [][][]byte) internalIterator {
	levels := make([]internalIterator, 0, len(files))
	for _, f := range files {
		levels = append(levels, newSSTIter(f))
	}
	if len(levels) == 1 {
		return levels[0]
	}
	return &mergingIter{levels: levels}
}

// NewExternalIter opens an iterator over the given sstables.
func NewExternalIter(files [][][]byte) *Iterator {
	it := &Iterator{}
	pointIter := createExternalPointIter(files)
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
		// close it explicitly.
		if i.pointIter != nil {
			i.err = firstError(i.err, i.pointIter.Close()) // want `doubleput`
		}
	}
	err := i.err
	i.iter, i.pointIter, i.err = nil, nil, nil
	return err
}
