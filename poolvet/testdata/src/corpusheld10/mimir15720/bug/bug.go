// Package bug reproduces the shape of a double pool return reported in
// review of grafana/mimir#15720 (https://github.com/grafana/mimir/pull/15720,
// thread on pkg/streamingpromql/optimize/plan/splitandcache/cache_operator.go):
// NextSeries defers returning the current output series' source indices to
// the int-slice pool, but when fetching the series' data fails it returns
// without advancing nextOutputSeriesIdx. Close then returns every remaining
// series' indices, the failed one included, so that slice goes back twice.
// (MQE's IntSlicePool is its own type; sync.Pool stands in for it here.)
//
// Check: doubleput (a deferred Put on an error path that leaves the object
// reachable from the receiver, then Close puts it again). The report is
// expected at the op.Close() call in the caller, where the second Put
// happens.
package bug

import (
	"errors"
	"sync"
)

const maxPooledInts = 1 << 12

var intSlicePool = sync.Pool{New: func() any {
	s := make([]int, 0, 8)
	return &s
}}

func getInts() *[]int {
	sp := intSlicePool.Get().(*[]int)
	*sp = (*sp)[:0]
	return sp
}

func putInts(sp *[]int) {
	if sp == nil || cap(*sp) > maxPooledInts {
		return
	}
	*sp = (*sp)[:0]
	intSlicePool.Put(sp)
}

type outputSeries struct {
	sourceSeriesIndices *[]int
}

var errFetch = errors.New("fetching series data failed")

type CacheOperator struct {
	outputSeries        []*outputSeries
	nextOutputSeriesIdx int
	fail                func(idx []int) bool
}

func NewCacheOperator(groups [][]int, fail func([]int) bool) *CacheOperator {
	op := &CacheOperator{fail: fail}
	for _, g := range groups {
		sp := getInts()
		*sp = append(*sp, g...)
		op.outputSeries = append(op.outputSeries, &outputSeries{sourceSeriesIndices: sp})
	}
	return op
}

func (c *CacheOperator) getDataForNextSeries(idx []int) (int, error) {
	if c.fail(idx) {
		return 0, errFetch
	}
	return len(idx), nil
}

// NextSeries returns the data of the next output series.
func (c *CacheOperator) NextSeries() (int, error) {
	if c.nextOutputSeriesIdx >= len(c.outputSeries) {
		return 0, nil
	}
	this := c.outputSeries[c.nextOutputSeriesIdx]
	defer putInts(this.sourceSeriesIndices)

	n, err := c.getDataForNextSeries(*this.sourceSeriesIndices)
	if err != nil {
		return 0, err
	}
	c.nextOutputSeriesIdx++
	return n, nil
}

// Close returns the indices of every series not yet emitted.
func (c *CacheOperator) Close() {
	for _, s := range c.outputSeries[c.nextOutputSeriesIdx:] {
		putInts(s.sourceSeriesIndices)
	}
	c.outputSeries = nil
	c.nextOutputSeriesIdx = 0
}

// Drain reads the operator to the end, closing it on the first error.
func Drain(op *CacheOperator) (int, error) {
	total := 0
	for range op.outputSeries {
		n, err := op.NextSeries()
		if err != nil {
			op.Close() // want `doubleput`
			return total, err
		}
		total += n
	}
	op.Close()
	return total, nil
}
