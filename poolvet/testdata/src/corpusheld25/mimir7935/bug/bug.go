// Package bug reproduces the shape of grafana/mimir#7935
// (https://github.com/grafana/mimir/pull/7935, "Do not recycle Exemplars slices
// with a capacity > 10"): distributors and ingesters unmarshal remote-write
// series into *TimeSeries values taken from a sync.Pool (TimeseriesFromPool) and
// give them back with ReuseTimeseries. The unmarshaller appends one Exemplar per
// wire entry, so a rare request carrying a huge number of exemplars per series
// grows TimeSeries.Exemplars; ClearExemplars only truncated it to [:0] and
// ReuseTimeseries put the series back, so the big backing arrays circulated
// through the pool and in-use heap climbed until most pooled series held one.
//
// Check: unbounded (the Put in ReuseTimeseries of a series whose Exemplars slice
// has no capacity bound). The caps on Labels, Samples and Histograms, which came
// in other changes, are present in both twins so that only Exemplars differs.
package bug

import (
	"errors"
	"sync"
)

const (
	minPreallocatedLabels              = 20
	maxPreallocatedLabels              = 200
	minPreallocatedSamplesPerSeries    = 10
	maxPreallocatedSamplesPerSeries    = 100
	maxPreallocatedHistogramsPerSeries = 100
	minPreallocatedExemplarsPerSeries  = 1
)

type LabelAdapter struct {
	Name, Value string
}

type Sample struct {
	TimestampMs int64
	Value       float64
}

type Histogram struct {
	Sum       float64
	Timestamp int64
}

type Exemplar struct {
	Labels      []LabelAdapter
	Value       float64
	TimestampMs int64
}

type TimeSeries struct {
	Labels     []LabelAdapter
	Samples    []Sample
	Exemplars  []Exemplar
	Histograms []Histogram
}

var timeSeriesPool = sync.Pool{
	New: func() interface{} {
		return &TimeSeries{
			Labels:     make([]LabelAdapter, 0, minPreallocatedLabels),
			Samples:    make([]Sample, 0, minPreallocatedSamplesPerSeries),
			Exemplars:  make([]Exemplar, 0, minPreallocatedExemplarsPerSeries),
			Histograms: nil,
		}
	},
}

// TimeseriesFromPool retrieves a *TimeSeries from the pool; ReuseTimeseries
// must be called once done.
func TimeseriesFromPool() *TimeSeries {
	return timeSeriesPool.Get().(*TimeSeries)
}

// ReuseTimeseries puts the series back into the pool for reuse.
func ReuseTimeseries(ts *TimeSeries) {
	// Name and Value may point into a large gRPC buffer; drop the references.
	for i := 0; i < len(ts.Labels); i++ {
		ts.Labels[i].Name = ""
		ts.Labels[i].Value = ""
	}

	if cap(ts.Labels) > maxPreallocatedLabels {
		ts.Labels = nil
	} else {
		ts.Labels = ts.Labels[:0]
	}
	if cap(ts.Samples) > maxPreallocatedSamplesPerSeries {
		ts.Samples = nil
	} else {
		ts.Samples = ts.Samples[:0]
	}
	if cap(ts.Histograms) > maxPreallocatedHistogramsPerSeries {
		ts.Histograms = nil
	} else {
		ts.Histograms = ts.Histograms[:0]
	}

	ClearExemplars(ts)
	timeSeriesPool.Put(ts) // want `unbounded`
}

// ClearExemplars safely removes exemplars from the series.
func ClearExemplars(ts *TimeSeries) {
	// Label strings may point into a large gRPC buffer; drop the references.
	for i := range ts.Exemplars {
		for j := range ts.Exemplars[i].Labels {
			ts.Exemplars[i].Labels[j].Name = ""
			ts.Exemplars[i].Labels[j].Value = ""
		}
		ts.Exemplars[i].Labels = nil
	}
	ts.Exemplars = ts.Exemplars[:0]
}

// WireSeries stands in for the protobuf bytes of one series.
type WireSeries struct {
	Labels    []LabelAdapter
	Samples   []Sample
	Exemplars []Exemplar
}

// PreallocTimeseries is a TimeSeries that takes its storage from the pool on
// Unmarshal.
type PreallocTimeseries struct {
	*TimeSeries
	SkipUnmarshalingExemplars bool
}

// Unmarshal mimics the generated decoder: every repeated field is appended to.
func (p *PreallocTimeseries) Unmarshal(w *WireSeries) error {
	if w == nil {
		return errors.New("nil series")
	}
	p.TimeSeries = TimeseriesFromPool()
	for _, l := range w.Labels {
		p.Labels = append(p.Labels, l)
	}
	for _, s := range w.Samples {
		p.Samples = append(p.Samples, s)
	}
	if p.SkipUnmarshalingExemplars {
		return nil
	}
	for _, e := range w.Exemplars {
		p.Exemplars = append(p.Exemplars, Exemplar{})
		last := &p.Exemplars[len(p.Exemplars)-1]
		last.Labels = append(last.Labels, e.Labels...)
		last.Value = e.Value
		last.TimestampMs = e.TimestampMs
	}
	return nil
}

// Push is the distributor path: decode every series, forward, release.
func Push(req []*WireSeries, forward func([]PreallocTimeseries) error) error {
	series := make([]PreallocTimeseries, 0, len(req))
	defer func() {
		for i := range series {
			ReuseTimeseries(series[i].TimeSeries)
		}
	}()
	for _, w := range req {
		var p PreallocTimeseries
		if err := p.Unmarshal(w); err != nil {
			return err
		}
		series = append(series, p)
	}
	return forward(series)
}
