// Package bug reproduces the shape of cockroachdb/pebble#953
// (https://github.com/cockroachdb/pebble/issues/953): pebble iterators are
// pool allocated and Close puts the iterator back into its sync.Pool. A user
// (benitogf/katamari) called Iterator.Error() after Close; the race detector
// caught that read racing with NewIter filling the same recycled iterator
// for another goroutine.
//
// Check: useafterput (Put inside a method of the package, Close, followed by
// a later use of the receiver by the caller; reported at that use).
package bug

import (
	"bytes"
	"sync"
)

type Iterator struct {
	keys   [][]byte
	vals   [][]byte
	prefix []byte
	pos    int
	err    error
}

var iterPool = sync.Pool{New: func() any { return new(Iterator) }}

type DB struct {
	mu   sync.RWMutex
	keys [][]byte
	vals [][]byte
}

func (d *DB) NewIter(prefix []byte) *Iterator {
	it := iterPool.Get().(*Iterator)
	d.mu.RLock()
	*it = Iterator{keys: d.keys, vals: d.vals, prefix: prefix, pos: -1}
	d.mu.RUnlock()
	return it
}

func (i *Iterator) Next() bool {
	for i.pos++; i.pos < len(i.keys); i.pos++ {
		if bytes.HasPrefix(i.keys[i.pos], i.prefix) {
			return true
		}
	}
	return false
}

func (i *Iterator) Value() []byte { return i.vals[i.pos] }

func (i *Iterator) Error() error { return i.err }

// Close releases the iterator; it must not be used afterwards.
func (i *Iterator) Close() error {
	err := i.err
	*i = Iterator{}
	iterPool.Put(i)
	return err
}

func Values(db *DB, prefix []byte) ([][]byte, error) {
	it := db.NewIter(prefix)
	var out [][]byte
	for it.Next() {
		out = append(out, bytes.Clone(it.Value()))
	}
	it.Close()
	if err := it.Error(); err != nil { // want `useafterput`
		return nil, err
	}
	return out, nil
}
