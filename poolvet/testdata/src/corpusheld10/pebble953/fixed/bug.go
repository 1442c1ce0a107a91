// Package fixed is the user-side fix for cockroachdb/pebble#953: take the
// error from Close (or read it before Close) and never touch the iterator
// after it went back to the pool.
package fixed

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
	if err := it.Close(); err != nil {
		return nil, err
	}
	return out, nil
}
