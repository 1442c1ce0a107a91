// Package bug reproduces the shape of cockroachdb/pebble#3672
// (https://github.com/cockroachdb/pebble/pull/3672, commit 32a6b99f5f2a,
// see also the older report cockroachdb/pebble#1884): the level checker
// closed every range-deletion iterator twice. addTombstonesFromIter closed
// its argument in a defer, and checkRangeTombstones then closed the same
// iterator again through iters.CloseAll(), on the error path and on the
// normal path. fragmentBlockIter.Close hands the iterator back to a
// sync.Pool, so each double close put the same iterator into the pool twice
// and two later readers could share it.
//
// Check: doubleput (a callee always puts its argument through a deferred
// Close; the caller then closes the same object again via a holder's
// CloseAll). The reports belong on the two CloseAll calls, the second Put
// on each path.
package bug

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

func addTombstonesFromIter(iter *fragmentBlockIter, level int, seqNum uint64, tombstones []tombstone) ([]tombstone, error) {
	defer iter.Close()

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
		if tombstones, err = addTombstonesFromIter(iters.RangeDeletion(), level, seqNum, tombstones); err != nil {
			iters.CloseAll() // want `doubleput`
			return nil, err
		}
		iters.CloseAll() // want `doubleput`
	}
	return tombstones, nil
}
