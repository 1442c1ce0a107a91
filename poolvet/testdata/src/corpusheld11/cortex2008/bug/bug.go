// Package bug reproduces the shape of cortexproject/cortex#2008
// (https://github.com/cortexproject/cortex/pull/2008): ReuseSlice hands a
// []PreallocTimeseries back to slicePool as a slice value truncated to zero
// length. staticcheck reported SA6002 on that Put (the slice header is boxed
// into an interface, one allocation per Put); the PR silenced it with
// nolint because the generated WriteRequest needs a plain slice.
//
// Check: nonpointer (a slice value, re-sliced to [:0], put into a sync.Pool).
package bug

import "sync"

type Sample struct {
	Value       float64
	TimestampMs int64
}

type TimeSeries struct {
	Labels  []string
	Samples []Sample
}

type PreallocTimeseries struct {
	*TimeSeries
}

const expectedTimeseries = 100

var slicePool = sync.Pool{
	New: func() any {
		return make([]PreallocTimeseries, 0, expectedTimeseries)
	},
}

var timeSeriesPool = sync.Pool{
	New: func() any {
		return &TimeSeries{}
	},
}

// PreallocTimeseriesSliceFromPool takes a slice out of the pool.
func PreallocTimeseriesSliceFromPool() []PreallocTimeseries {
	return slicePool.Get().([]PreallocTimeseries)
}

// ReuseTimeseries gives one series back.
func ReuseTimeseries(ts *TimeSeries) {
	clear(ts.Labels)
	ts.Labels = ts.Labels[:0]
	ts.Samples = ts.Samples[:0]
	timeSeriesPool.Put(ts)
}

// ReuseSlice gives every series and then the slice itself back.
func ReuseSlice(slice []PreallocTimeseries) {
	for i := range slice {
		ReuseTimeseries(slice[i].TimeSeries)
		slice[i].TimeSeries = nil
	}
	slicePool.Put(slice[:0]) // want `nonpointer`
}
