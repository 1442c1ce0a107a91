package useafterput

import (
	"fmt"
	"sync"
)

type seriesLabel struct{ name, value string }

type series struct {
	labels  []seriesLabel
	samples []int64
}

var seriesSlicePool = sync.Pool{New: func() any {
	s := make([]series, 0, 64)
	return &s
}}

func reuseSeries(s *[]series) {
	if cap(*s) > 1<<12 {
		return
	}
	*s = (*s)[:0]
	seriesSlicePool.Put(s)
}

type sampleError struct {
	labels []seriesLabel
	reason string
}

func newSampleError(labels []seriesLabel, reason string) *sampleError {
	return &sampleError{labels: labels, reason: reason}
}

func (e *sampleError) Error() string {
	return fmt.Sprint(e.reason, e.labels)
}

// The last error of an inner loop keeps the labels of an element of the
// pooled slice; the slice goes back before the error is formatted
// (grafana/cortex#25).
func pushSeries(req *[]series) error {
	var last *sampleError
	for _, ts := range *req {
		for _, s := range ts.samples {
			if s < 0 {
				last = newSampleError(ts.labels, "negative")
				continue
			}
		}
	}
	reuseSeries(req)
	if last != nil {
		return fmt.Errorf("partial failure: %s", last.Error()) // want `req is used after it was put back into the pool`
	}
	return nil
}

// The fix: the error is formatted before the slice goes back.
func pushFormatted(req *[]series) error {
	var last *sampleError
	for _, ts := range *req {
		for _, s := range ts.samples {
			if s < 0 {
				last = newSampleError(ts.labels, "negative")
			}
		}
	}
	var err error
	if last != nil {
		err = fmt.Errorf("partial failure: %s", last.Error())
	}
	reuseSeries(req)
	return err
}
