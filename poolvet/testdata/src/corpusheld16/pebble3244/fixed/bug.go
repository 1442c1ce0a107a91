// Package fixed is the fix of the cockroachdb/pebble double Close (commit
// 8471e8d22c586bf17b547cb811ea5671b6b81f01, PR #3244): the tool wraps the
// iterator in a helper that absorbs a second Close, so the deferred Close and
// the explicit one close (and pool) the iterator once.
package fixed

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

// closeHelper forwards the first Close and ignores later ones.
type closeHelper struct {
	c io.Closer
}

func (h *closeHelper) Close() error {
	if h.c == nil {
		return nil
	}
	c := h.c
	h.c = nil
	return c.Close()
}

// runScan prints every byte of the table.
func runScan(r *Reader, stdout, stderr io.Writer) {
	iter, err := r.NewIter()
	if err != nil {
		fmt.Fprintf(stderr, "%s\n", err)
		return
	}
	iterCloser := &closeHelper{c: iter}
	defer iterCloser.Close()

	for b, ok := iter.Next(); ok; b, ok = iter.Next() {
		fmt.Fprintf(stdout, "%x\n", b)
	}

	if err := iterCloser.Close(); err != nil {
		fmt.Fprintf(stdout, "%s\n", err)
	}
}
