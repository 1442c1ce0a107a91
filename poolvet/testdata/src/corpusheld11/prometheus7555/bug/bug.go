// Package bug reproduces the shape of prometheus/prometheus#7555
// (https://github.com/prometheus/prometheus/pull/7555): updating
// golangci-lint surfaced SA6002 in promql/engine.go at
// putPointSlice's pointPool.Put(p[:0]): the engine pools []Point slices as
// bare slice values, so each Put boxes a slice header. The slices are made
// at whatever length the query asks for (one point per step) and go back
// with no bound on their capacity. The project silenced the report
// (lint:ignore SA6002) instead of changing the pool.
//
// Check: nonpointer (a []Point value put into a sync.Pool); the same Put
// also keeps caller-sized slices with no cap bound (unbounded), so both are
// expected on that line.
package bug

import "sync"

type Point struct {
	T int64
	V float64
}

type Series struct {
	Metric string
	Points []Point
}

var pointPool = sync.Pool{}

func getPointSlice(sz int) []Point {
	p := pointPool.Get()
	if p != nil {
		return p.([]Point)
	}
	return make([]Point, 0, sz)
}

func putPointSlice(p []Point) {
	pointPool.Put(p[:0]) // want `nonpointer` `unbounded`
}

// rangeEval evaluates one series over [start, end] every interval and
// drops series that produced no point.
func rangeEval(metric string, start, end, interval int64, at func(int64) (float64, bool)) (Series, bool) {
	steps := int((end-start)/interval) + 1
	ss := Series{Metric: metric, Points: getPointSlice(steps)}
	for ts := start; ts <= end; ts += interval {
		if v, ok := at(ts); ok {
			ss.Points = append(ss.Points, Point{T: ts, V: v})
		}
	}
	if len(ss.Points) == 0 {
		putPointSlice(ss.Points)
		return Series{}, false
	}
	return ss, true
}
