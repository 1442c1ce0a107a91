// Package bug is the fixed twin of cortexproject/cortex#1638
// (https://github.com/cortexproject/cortex/pull/1638): timeSeriesPool holds
// *TimeSeries, PreallocTimeseries embeds the pointer, and ReuseTimeseries puts
// the pointer back.
//
// Check: nonpointer (no report expected).
package bug

import (
	"errors"
	"sync"
)

var (
	expectedSamplesPerSeries = 10

	timeSeriesPool = sync.Pool{
		New: func() interface{} {
			return &TimeSeries{
				Samples: make([]Sample, 0, expectedSamplesPerSeries),
			}
		},
	}
)

// Sample is one timestamped value.
type Sample struct {
	TimestampMs int64
	Value       float64
}

// TimeSeries is one series in a write request.
type TimeSeries struct {
	Samples []Sample
}

// Unmarshal decodes a series; the encoding here is a stand-in for protobuf.
func (m *TimeSeries) Unmarshal(data []byte) error {
	if len(data)%2 != 0 {
		return errors.New("bad series")
	}
	for i := 0; i+1 < len(data); i += 2 {
		m.Samples = append(m.Samples, Sample{TimestampMs: int64(data[i]), Value: float64(data[i+1])})
	}
	return nil
}

// PreallocTimeseries is a TimeSeries whose slices come from the pool.
type PreallocTimeseries struct {
	*TimeSeries
}

// Unmarshal takes a pooled TimeSeries and decodes into it.
func (p *PreallocTimeseries) Unmarshal(data []byte) error {
	p.TimeSeries = timeSeriesPool.Get().(*TimeSeries)
	return p.TimeSeries.Unmarshal(data)
}

// WriteRequest is a batch of series pushed by a client.
type WriteRequest struct {
	Timeseries []PreallocTimeseries
}

// ReuseSlice gives every series of a request back to the pool.
func ReuseSlice(slice []PreallocTimeseries) {
	for i := range slice {
		if slice[i].TimeSeries != nil {
			ReuseTimeseries(slice[i].TimeSeries)
		}
	}
}

// ReuseTimeseries puts the timeseries back into a sync.Pool for reuse.
func ReuseTimeseries(ts *TimeSeries) {
	ts.Samples = ts.Samples[:0]
	timeSeriesPool.Put(ts)
}

// Push decodes the series of one request, ingests them and recycles them.
func Push(series [][]byte, ingest func(TimeSeries)) error {
	req := WriteRequest{Timeseries: make([]PreallocTimeseries, len(series))}
	defer ReuseSlice(req.Timeseries)
	for i, data := range series {
		if err := req.Timeseries[i].Unmarshal(data); err != nil {
			return err
		}
	}
	for _, ts := range req.Timeseries {
		ingest(*ts.TimeSeries)
	}
	return nil
}
