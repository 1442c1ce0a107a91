// Package bug reproduces the shape of prometheus/prometheus#7930
// (https://github.com/prometheus/prometheus/pull/7930, commit
// https://github.com/prometheus/prometheus/commit/40ee3668993aa7805693d4fbfb8078ae7a5560eb):
// the PromQL engine recycles the []Point slices it builds for range vectors
// through a package-level sync.Pool. putPointSlice put every slice back, so a
// single query over a long range (millions of points) left a huge backing
// array in the pool, to be handed to the next small query and kept alive
// across GC cycles (golang/go#23199). The fix drops slices whose capacity is
// above a fixed limit instead of pooling them.
//
// Check: unbounded (putPointSlice pools a slice of any capacity).
package bug

import "sync"

// Point is one sample.
type Point struct {
	T int64
	V float64
}

// Series is a labelled list of points.
type Series struct {
	Metric string
	Points []Point
}

var pointPool = sync.Pool{}

func getPointSlice(sz int) *[]Point {
	if p := pointPool.Get(); p != nil {
		return p.(*[]Point)
	}
	s := make([]Point, 0, sz)
	return &s
}

func putPointSlice(p *[]Point) {
	*p = (*p)[:0]
	pointPool.Put(p) // want `unbounded`
}

// Iterator walks the raw samples of one series.
type Iterator interface {
	Next() bool
	At() (int64, float64)
}

type evaluator struct {
	startTimestamp int64
	endTimestamp   int64
}

// matrixIterSlice appends the samples in (mint, maxt] to out.
func (ev *evaluator) matrixIterSlice(it Iterator, mint, maxt int64, out *[]Point) {
	for it.Next() {
		t, v := it.At()
		if t > maxt {
			break
		}
		if t > mint {
			*out = append(*out, Point{T: t, V: v})
		}
	}
}

// rangeSum evaluates sum_over_time for each series and returns one value per
// series; the range buffers go back to the pool once the sums are computed.
func (ev *evaluator) rangeSum(names []string, its []Iterator, rangeMs int64) []Series {
	out := make([]Series, 0, len(its))
	for i, it := range its {
		points := getPointSlice(16)
		ev.matrixIterSlice(it, ev.endTimestamp-rangeMs, ev.endTimestamp, points)
		var sum float64
		for _, p := range *points {
			sum += p.V
		}
		putPointSlice(points)
		out = append(out, Series{Metric: names[i], Points: []Point{{T: ev.endTimestamp, V: sum}}})
	}
	return out
}
