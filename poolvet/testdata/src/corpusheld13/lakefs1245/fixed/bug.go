// Package fixed is treeverse/lakeFS#1245 after the fix
// (https://github.com/treeverse/lakeFS/pull/1245): the lakeFS iterator
// closes the pebble SSTable iterator only once and forgets it, so closing
// the wrapper again is harmless.
package fixed

import "sync"

type record struct {
	key, value string
}

// sstableIter stands for pebble's SSTable iterator: Close recycles it.
type sstableIter struct {
	records []record
	pos     int
}

var sstableIterPool = sync.Pool{New: func() any { return new(sstableIter) }}

func newSSTableIter(records []record) *sstableIter {
	it := sstableIterPool.Get().(*sstableIter)
	it.records = records
	it.pos = -1
	return it
}

func (it *sstableIter) Next() bool {
	it.pos++
	return it.pos < len(it.records)
}

func (it *sstableIter) Value() record { return it.records[it.pos] }

func (it *sstableIter) Close() error {
	*it = sstableIter{}
	sstableIterPool.Put(it)
	return nil
}

// Iterator is the lakeFS iterator over one SSTable; Close may be called
// more than once.
type Iterator struct {
	it  *sstableIter
	err error
}

func NewIterator(records []record) *Iterator {
	return &Iterator{it: newSSTableIter(records)}
}

func (i *Iterator) Next() bool    { return i.it.Next() }
func (i *Iterator) Value() record { return i.it.Value() }
func (i *Iterator) Err() error    { return i.err }

func (i *Iterator) Close() {
	if i.it == nil {
		return
	}
	i.err = i.it.Close()
	i.it = nil
}

// countUntil reads entries up to (not including) stop and releases the
// iterator as soon as it is done with it.
func countUntil(records []record, stop string) int {
	iter := NewIterator(records)
	defer iter.Close()
	n := 0
	for iter.Next() {
		if iter.Value().key == stop {
			break
		}
		n++
	}
	iter.Close()
	return n
}
