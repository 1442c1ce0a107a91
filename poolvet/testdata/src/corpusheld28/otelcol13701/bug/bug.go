// Package bug reproduces the shape of open-telemetry/opentelemetry-collector#13701
// (https://github.com/open-telemetry/opentelemetry-collector/pull/13701): the
// generated pdata delete helpers recycle protobuf messages through per-type
// sync.Pools behind a feature gate. For a oneof field, DeleteOrigMetric first
// deleted the wrapped message, cleared the field and put the oneof wrapper
// (e.g. *Metric_Gauge) back into its pool, and then, after the if-block, read
// ov.Gauge again to delete it a second time. By then the wrapper may already
// have been handed to another goroutine that set its own Gauge, which this
// code would then reset and put back into the gauge pool under it.
// The fix drops the extra call, so the wrapper is not touched after its Put.
// Check: useafterput (the read of ov.Gauge / ov.Sum after the wrapper was put
// back into its pool).
package bug

import "sync"

// featureGate mimics the collector's feature-gate handle.
type featureGate struct{ enabled bool }

// IsEnabled reports whether the gate is on.
func (g *featureGate) IsEnabled() bool { return g.enabled }

// UseProtoPooling gates the use of the proto pools.
var UseProtoPooling = &featureGate{enabled: true}

// NumberDataPoint is a data point.
type NumberDataPoint struct {
	TimeUnixNano uint64
	Value        float64
}

// Reset clears the point.
func (m *NumberDataPoint) Reset() { *m = NumberDataPoint{} }

// Gauge is a gauge metric body.
type Gauge struct {
	DataPoints []*NumberDataPoint
}

// Reset clears the gauge.
func (m *Gauge) Reset() { *m = Gauge{} }

// Sum is a sum metric body.
type Sum struct {
	DataPoints             []*NumberDataPoint
	AggregationTemporality int32
	IsMonotonic            bool
}

// Reset clears the sum.
func (m *Sum) Reset() { *m = Sum{} }

// isMetricData is the oneof interface.
type isMetricData interface{ isMetricData() }

// Metric_Gauge is the oneof wrapper for a gauge.
type Metric_Gauge struct{ Gauge *Gauge }

// Metric_Sum is the oneof wrapper for a sum.
type Metric_Sum struct{ Sum *Sum }

func (*Metric_Gauge) isMetricData() {}
func (*Metric_Sum) isMetricData()   {}

// Metric is a metric message.
type Metric struct {
	Name string
	Unit string
	Data isMetricData
}

// Reset clears the metric.
func (m *Metric) Reset() { *m = Metric{} }

var (
	protoPoolMetric = sync.Pool{New: func() any { return &Metric{} }}
	protoPoolGauge  = sync.Pool{New: func() any { return &Gauge{} }}
	protoPoolSum    = sync.Pool{New: func() any { return &Sum{} }}
	protoPoolPoint  = sync.Pool{New: func() any { return &NumberDataPoint{} }}

	// ProtoPoolMetric_Gauge recycles gauge oneof wrappers.
	ProtoPoolMetric_Gauge = sync.Pool{New: func() any { return &Metric_Gauge{} }}
	// ProtoPoolMetric_Sum recycles sum oneof wrappers.
	ProtoPoolMetric_Sum = sync.Pool{New: func() any { return &Metric_Sum{} }}
)

// NewOrigMetric returns a metric, pooled when the gate is on.
func NewOrigMetric() *Metric {
	if !UseProtoPooling.IsEnabled() {
		return &Metric{}
	}
	return protoPoolMetric.Get().(*Metric)
}

// DeleteOrigNumberDataPoint recycles a data point.
func DeleteOrigNumberDataPoint(orig *NumberDataPoint, nullable bool) {
	if orig == nil {
		return
	}
	if !UseProtoPooling.IsEnabled() {
		orig.Reset()
		return
	}
	orig.Reset()
	if nullable {
		protoPoolPoint.Put(orig)
	}
}

// DeleteOrigGauge recycles a gauge and its points.
func DeleteOrigGauge(orig *Gauge, nullable bool) {
	if orig == nil {
		return
	}
	if !UseProtoPooling.IsEnabled() {
		orig.Reset()
		return
	}
	for i := range orig.DataPoints {
		DeleteOrigNumberDataPoint(orig.DataPoints[i], true)
	}
	orig.Reset()
	if nullable {
		protoPoolGauge.Put(orig)
	}
}

// DeleteOrigSum recycles a sum and its points.
func DeleteOrigSum(orig *Sum, nullable bool) {
	if orig == nil {
		return
	}
	if !UseProtoPooling.IsEnabled() {
		orig.Reset()
		return
	}
	for i := range orig.DataPoints {
		DeleteOrigNumberDataPoint(orig.DataPoints[i], true)
	}
	orig.Reset()
	if nullable {
		protoPoolSum.Put(orig)
	}
}

// DeleteOrigMetric recycles a metric and its oneof body.
func DeleteOrigMetric(orig *Metric, nullable bool) {
	if orig == nil {
		return
	}

	if !UseProtoPooling.IsEnabled() {
		orig.Reset()
		return
	}

	switch ov := orig.Data.(type) {
	case *Metric_Gauge:
		if UseProtoPooling.IsEnabled() {
			DeleteOrigGauge(ov.Gauge, true)
			ov.Gauge = nil
			ProtoPoolMetric_Gauge.Put(ov)
		}
		DeleteOrigGauge(ov.Gauge, true) // want `useafterput`
	case *Metric_Sum:
		if UseProtoPooling.IsEnabled() {
			DeleteOrigSum(ov.Sum, true)
			ov.Sum = nil
			ProtoPoolMetric_Sum.Put(ov)
		}
		DeleteOrigSum(ov.Sum, true) // want `useafterput`
	}

	orig.Reset()
	if nullable {
		protoPoolMetric.Put(orig)
	}
}
