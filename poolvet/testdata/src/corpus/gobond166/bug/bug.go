// Package bug reproduces the shape of go-bond/bond#166
// (https://github.com/go-bond/bond/pull/166): tables used raw pool
// accessors and put key/value buffers back whatever they had grown to; the
// fix replaced them with get/put helpers that discard oversized buffers.
//
// Check: unbounded (a *[]byte appended to and put back without a bound).
package bug

import "sync"

type Table struct {
	keyBufferPool *sync.Pool
}

func NewTable() *Table {
	return &Table{keyBufferPool: &sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}}
}

func (t *Table) getKeyBufferPool() *sync.Pool { return t.keyBufferPool }

func (t *Table) Insert(keys [][]byte, put func([]byte) error) error {
	pool := t.getKeyBufferPool()
	kp := pool.Get().(*[]byte)
	defer pool.Put(kp) // want `capacity check|unbounded`
	for _, k := range keys {
		*kp = append((*kp)[:0], 'T')
		*kp = append(*kp, k...)
		if err := put(*kp); err != nil {
			return err
		}
	}
	return nil
}
