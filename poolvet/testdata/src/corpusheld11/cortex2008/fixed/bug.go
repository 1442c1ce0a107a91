// Package fixed is the obvious fix of cortexproject/cortex#2008
// (https://github.com/cortexproject/cortex/pull/2008), the one the linter
// asked for: the pool holds *[]PreallocTimeseries, so Put stores a pointer
// and boxes nothing.
package fixed

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
		s := make([]PreallocTimeseries, 0, expectedTimeseries)
		return &s
	},
}

var timeSeriesPool = sync.Pool{
	New: func() any {
		return &TimeSeries{}
	},
}

// PreallocTimeseriesSliceFromPool takes a slice out of the pool.
func PreallocTimeseriesSliceFromPool() *[]PreallocTimeseries {
	return slicePool.Get().(*[]PreallocTimeseries)
}

// ReuseTimeseries gives one series back.
func ReuseTimeseries(ts *TimeSeries) {
	clear(ts.Labels)
	ts.Labels = ts.Labels[:0]
	ts.Samples = ts.Samples[:0]
	timeSeriesPool.Put(ts)
}

// ReuseSlice gives every series and then the slice itself back.
func ReuseSlice(sp *[]PreallocTimeseries) {
	slice := *sp
	for i := range slice {
		ReuseTimeseries(slice[i].TimeSeries)
		slice[i].TimeSeries = nil
	}
	*sp = slice[:0]
	slicePool.Put(sp)
}
