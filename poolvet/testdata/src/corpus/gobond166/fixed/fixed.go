// Package fixed is the fix of go-bond/bond#166
// (https://github.com/go-bond/bond/pull/166): a put helper drops buffers
// above the cap.
package fixed

import "sync"

const maxKeyBufferCap = 4096

type Table struct {
	keyBufferPool *sync.Pool
}

func NewTable() *Table {
	return &Table{keyBufferPool: &sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}}
}

func (t *Table) getKeyBuffer() *[]byte { return t.keyBufferPool.Get().(*[]byte) }

func (t *Table) putKeyBuffer(kp *[]byte) {
	if cap(*kp) > maxKeyBufferCap {
		return
	}
	*kp = (*kp)[:0]
	t.keyBufferPool.Put(kp)
}

func (t *Table) Insert(keys [][]byte, put func([]byte) error) error {
	kp := t.getKeyBuffer()
	defer t.putKeyBuffer(kp)
	for _, k := range keys {
		*kp = append((*kp)[:0], 'T')
		*kp = append(*kp, k...)
		if err := put(*kp); err != nil {
			return err
		}
	}
	return nil
}
