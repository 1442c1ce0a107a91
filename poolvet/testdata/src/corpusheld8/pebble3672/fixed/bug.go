// Package fixed is cockroachdb/pebble#3672 after the fix: the helper no
// longer closes the iterator it was given; the caller that opened the
// iterators closes them exactly once, whatever the helper returned.
package fixed

import (
	"errors"
	"sync"
)

type span struct {
	start, end string
	seq        uint64
}

type fragmentBlockIter struct {
	spans []span
	pos   int
}

var fragmentBlockIterPool = sync.Pool{
	New: func() any { return &fragmentBlockIter{} },
}

func newFragmentBlockIter(spans []span) *fragmentBlockIter {
	i := fragmentBlockIterPool.Get().(*fragmentBlockIter)
	i.spans = spans
	i.pos = 0
	return i
}

func (i *fragmentBlockIter) First() *span {
	i.pos = 0
	return i.Next()
}

func (i *fragmentBlockIter) Next() *span {
	if i.pos >= len(i.spans) {
		return nil
	}
	s := &i.spans[i.pos]
	i.pos++
	return s
}

// Close returns the iterator to the pool.
func (i *fragmentBlockIter) Close() {
	*i = fragmentBlockIter{}
	fragmentBlockIterPool.Put(i)
}

// iterSet is what newIters returns for one file.
type iterSet struct {
	rangeDeletion *fragmentBlockIter
}

func (s iterSet) RangeDeletion() *fragmentBlockIter { return s.rangeDeletion }

func (s iterSet) CloseAll() {
	if s.rangeDeletion != nil {
		s.rangeDeletion.Close()
	}
}

type file struct {
	num   int
	spans []span
}

func newIters(f file) (iterSet, error) {
	if f.spans == nil {
		return iterSet{}, errors.New("missing file")
	}
	return iterSet{rangeDeletion: newFragmentBlockIter(f.spans)}, nil
}

type tombstone struct {
	span
	level int
}

// addTombstonesFromIter does not own iter: the caller closes it.
func addTombstonesFromIter(iter *fragmentBlockIter, level int, seqNum uint64, tombstones []tombstone) ([]tombstone, error) {
	var prev span
	for t := iter.First(); t != nil; t = iter.Next() {
		if t.seq > seqNum {
			continue
		}
		if prev.end > t.start {
			return nil, errors.New("unordered or unfragmented range delete tombstones")
		}
		prev = *t
		tombstones = append(tombstones, tombstone{span: *t, level: level})
	}
	return tombstones, nil
}

func checkRangeTombstones(files []file, seqNum uint64) ([]tombstone, error) {
	var tombstones []tombstone
	var err error
	for level, f := range files {
		iters, err2 := newIters(f)
		if err2 != nil {
			return nil, err2
		}
		tombstones, err = addTombstonesFromIter(iters.RangeDeletion(), level, seqNum, tombstones)
		iters.CloseAll()
		if err != nil {
			return nil, err
		}
	}
	return tombstones, nil
}
