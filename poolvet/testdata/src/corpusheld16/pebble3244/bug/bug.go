// Package bug reproduces the shape of a double Close in cockroachdb/pebble,
// fixed by commit 8471e8d22c586bf17b547cb811ea5671b6b81f01 (PR #3244,
// https://github.com/cockroachdb/pebble/commit/8471e8d22c586bf17b547cb811ea5671b6b81f01).
// The `sstable scan` tool deferred iter.Close() and also closed the iterator
// explicitly at the end to report its error. The sstable iterator's Close
// clears it and puts it back into a sync.Pool, so the second Close put the
// same iterator into the pool again (possibly after another user got it).
//
// Check: doubleput (a Close method that puts its receiver into a sync.Pool,
// called through a defer and again explicitly; reported at the explicit call,
// the second Put on the path).
package bug

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

type singleLevelIterator struct {
	data  []byte
	pos   int
	err   error
	stats int
}

var singleLevelIterPool = sync.Pool{
	New: func() any { return &singleLevelIterator{} },
}

type Reader struct {
	block []byte
}

// NewIter hands out an iterator taken from the pool.
func (r *Reader) NewIter() (*singleLevelIterator, error) {
	if r.block == nil {
		return nil, errors.New("no data")
	}
	i := singleLevelIterPool.Get().(*singleLevelIterator)
	i.data = r.block
	i.pos = 0
	return i, nil
}

func (i *singleLevelIterator) Next() (byte, bool) {
	if i.pos >= len(i.data) {
		return 0, false
	}
	b := i.data[i.pos]
	i.pos++
	i.stats++
	return b, true
}

// Close records the error, clears the iterator and returns it to the pool.
func (i *singleLevelIterator) Close() error {
	err := i.err
	*i = singleLevelIterator{}
	singleLevelIterPool.Put(i)
	return err
}

// runScan prints every byte of the table.
func runScan(r *Reader, stdout, stderr io.Writer) {
	iter, err := r.NewIter()
	if err != nil {
		fmt.Fprintf(stderr, "%s\n", err)
		return
	}
	defer iter.Close()

	for b, ok := iter.Next(); ok; b, ok = iter.Next() {
		fmt.Fprintf(stdout, "%x\n", b)
	}

	if err := iter.Close(); err != nil { // want `doubleput`
		fmt.Fprintf(stdout, "%s\n", err)
	}
}
