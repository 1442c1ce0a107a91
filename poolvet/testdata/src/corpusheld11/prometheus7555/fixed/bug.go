// Package fixed is the obvious fix of the SA6002 report in
// prometheus/prometheus#7555
// (https://github.com/prometheus/prometheus/pull/7555): the pool holds
// *[]Point, so Put stores a pointer, and a slice that grew past a fixed
// capacity is dropped instead of pooled.
package fixed

import "sync"

type Point struct {
	T int64
	V float64
}

type Series struct {
	Metric string
	Points []Point
}

const maxPooledPoints = 11000

var pointPool = sync.Pool{}

func getPointSlice(sz int) *[]Point {
	p := pointPool.Get()
	if p != nil {
		return p.(*[]Point)
	}
	s := make([]Point, 0, sz)
	return &s
}

func putPointSlice(p *[]Point) {
	if cap(*p) > maxPooledPoints {
		return
	}
	*p = (*p)[:0]
	pointPool.Put(p)
}

// rangeEval evaluates one series over [start, end] every interval and
// drops series that produced no point.
func rangeEval(metric string, start, end, interval int64, at func(int64) (float64, bool)) (Series, bool) {
	steps := int((end-start)/interval) + 1
	pp := getPointSlice(steps)
	for ts := start; ts <= end; ts += interval {
		if v, ok := at(ts); ok {
			*pp = append(*pp, Point{T: ts, V: v})
		}
	}
	if len(*pp) == 0 {
		putPointSlice(pp)
		return Series{}, false
	}
	return Series{Metric: metric, Points: *pp}, true
}
