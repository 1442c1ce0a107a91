// Package fixed is the fix of m3db/m3#4049
// (https://github.com/m3db/m3/pull/4049): the dedupe map no longer closes
// the iterator it replaces; seenIters owns every iterator and Close closes
// each exactly once.
package fixed

import "sync"

type seriesIterator struct {
	id     string
	rank   int
	values []float64
	closed bool
}

var iterPool = sync.Pool{New: func() any { return &seriesIterator{} }}

func newSeriesIterator(id string, rank int) *seriesIterator {
	it := iterPool.Get().(*seriesIterator)
	it.Reset(id, rank)
	return it
}

func (it *seriesIterator) Reset(id string, rank int) {
	it.id, it.rank = id, rank
	it.values = it.values[:0]
	it.closed = false
}

// Close returns the iterator to the pool.
func (it *seriesIterator) Close() {
	if it.closed {
		return
	}
	it.closed = true
	it.id = ""
	if cap(it.values) > 4096 {
		return
	}
	it.values = it.values[:0]
	iterPool.Put(it)
}

type tagDedupeMap struct {
	series map[string]*seriesIterator
}

func (m *tagDedupeMap) update(iter *seriesIterator) {
	existing, ok := m.series[iter.id]
	if !ok {
		m.series[iter.id] = iter
		return
	}
	if existing.rank >= iter.rank {
		return
	}
	// Override; the replaced iterator is closed with the others in
	// multiResult.Close.
	m.series[iter.id] = iter
}

type multiResult struct {
	seenIters []*seriesIterator
	dedupe    tagDedupeMap
}

func newMultiResult() *multiResult {
	return &multiResult{dedupe: tagDedupeMap{series: map[string]*seriesIterator{}}}
}

func (r *multiResult) Add(iter *seriesIterator) {
	r.seenIters = append(r.seenIters, iter)
	r.dedupe.update(iter)
}

func (r *multiResult) Close() {
	for _, iter := range r.seenIters {
		iter.Close()
	}
	r.seenIters = nil
	r.dedupe.series = nil
}

// Fetch merges the replicas of one series from two namespaces.
func Fetch(id string) int {
	r := newMultiResult()
	r.Add(newSeriesIterator(id, 1))
	r.Add(newSeriesIterator(id, 2))
	n := len(r.dedupe.series)
	r.Close()
	return n
}
