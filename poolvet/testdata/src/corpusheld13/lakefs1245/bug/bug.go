// Package bug reproduces the shape of treeverse/lakeFS#1245
// (https://github.com/treeverse/lakeFS/pull/1245, fixing #1238): lakeFS
// wraps pebble's SSTable iterator in its own iterator, whose contract lets
// callers close it more than once. The wrapper's Close closed the pebble
// iterator every time, and pebble's Close zeroes the iterator and returns
// it to a sync.Pool, so a second Close put the same iterator in the pool
// again (two later users could then share it). The pebble side is folded
// into this package as sstableIter; the caller closes the wrapper when it
// is done and again in a defer, which the lakeFS contract allows.
//
// Check: doubleput (a wrapper Close that always closes a pooled inner
// iterator, called explicitly under a deferred Close; reported at the
// explicit call, per the deferred-plus-explicit rule).
package bug

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
func (i *Iterator) Close()        { i.err = i.it.Close() }

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
	iter.Close() // want `doubleput`
	return n
}
