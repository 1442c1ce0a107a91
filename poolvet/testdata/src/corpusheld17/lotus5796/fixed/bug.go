// Package fixed is the fix of filecoin-project/lotus#5796
// (https://github.com/filecoin-project/lotus/pull/5796): the deferred loop
// that returns the keys to the pool is registered before the batch's
// deferred Cancel, so Cancel runs first and the keys go back only once the
// batch is done with them.
package fixed

import (
	"encoding/hex"
	"errors"
	"sync"
)

const maxKeySize = 256

var keyPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 64)
	return &b
}}

func getKey(size int) []byte {
	bp := keyPool.Get().(*[]byte)
	if cap(*bp) < size {
		*bp = make([]byte, 0, size)
	}
	return (*bp)[:size]
}

func putKey(k []byte) {
	if cap(k) > maxKeySize {
		return
	}
	k = k[:0]
	keyPool.Put(&k)
}

type db struct {
	aborted [][]byte
	fail    bool
}

type writeBatch struct {
	db      *db
	pending [][]byte // the batch keeps the key slices it is given
	done    bool
}

func (d *db) NewWriteBatch() *writeBatch { return &writeBatch{db: d} }

func (wb *writeBatch) Delete(k []byte) error {
	if wb.db.fail {
		return errors.New("batch full")
	}
	wb.pending = append(wb.pending, k)
	return nil
}

func (wb *writeBatch) Flush() error {
	wb.done = true
	wb.pending = nil
	return nil
}

// Cancel drops what was not flushed; it still goes over the pending keys.
func (wb *writeBatch) Cancel() {
	if wb.done {
		return
	}
	for _, k := range wb.pending {
		wb.db.aborted = append(wb.db.aborted, append([]byte(nil), k...))
	}
	wb.pending = nil
}

type Blockstore struct {
	db *db
}

func (b *Blockstore) pooledStorageKey(cid []byte) []byte {
	k := getKey(hex.EncodedLen(len(cid)))
	hex.Encode(k, cid)
	return k
}

// DeleteMany deletes the blocks with the given cids.
func (b *Blockstore) DeleteMany(cids [][]byte) error {
	// the keys go back to the pool when we are done; badger holds on to
	// them until then.
	toReturn := make([][]byte, 0, len(cids))
	defer func() {
		for _, k := range toReturn {
			putKey(k)
		}
	}()

	batch := b.db.NewWriteBatch()
	defer batch.Cancel()

	for _, cid := range cids {
		k := b.pooledStorageKey(cid)
		toReturn = append(toReturn, k)
		if err := batch.Delete(k); err != nil {
			return err
		}
	}
	return batch.Flush()
}
