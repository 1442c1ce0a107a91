// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics#10378
// (https://github.com/VictoriaMetrics/VictoriaMetrics/issues/10378, "VMInsert
// OOM issues using OpenTelemetry spanmetrics connector"), fixed by
// https://github.com/VictoriaMetrics/VictoriaMetrics/pull/10389: the
// OpenTelemetry parser clones every metric name and label into the buf field
// of a pooled writeRequestContext (the labels are unsafe views into buf).
// One request with very many or very long labels grew buf to hundreds of
// megabytes, and putWriteRequestContext truncated it and put it back as it
// was, so the pool kept that memory for the next, small, requests.
//
// Check: unbounded (a pooled struct whose []byte field its methods append
// to by a variable amount, put back with no size check), at the Put in
// putWriteRequestContext.
package bug

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

type Label struct {
	Name, Value string
}

type Sample struct {
	Value     float64
	Timestamp int64
}

type TimeSeries struct {
	Labels  []Label
	Samples []Sample
}

type writeRequestContext struct {
	samplesBuf []Sample
	labelsBuf  []Label
	tss        []TimeSeries

	buf []byte
}

func (wctx *writeRequestContext) reset() {
	clear(wctx.samplesBuf)
	wctx.samplesBuf = wctx.samplesBuf[:0]

	clear(wctx.labelsBuf)
	wctx.labelsBuf = wctx.labelsBuf[:0]

	clear(wctx.tss)
	wctx.tss = wctx.tss[:0]

	wctx.buf = wctx.buf[:0]
}

func toUnsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func (wctx *writeRequestContext) cloneString(s string) string {
	bufLen := len(wctx.buf)
	wctx.buf = append(wctx.buf, s...)
	return toUnsafeString(wctx.buf[bufLen:])
}

func (wctx *writeRequestContext) concat(a, b string) string {
	bufLen := len(wctx.buf)
	wctx.buf = append(wctx.buf, a...)
	wctx.buf = append(wctx.buf, b...)
	return toUnsafeString(wctx.buf[bufLen:])
}

// PushSample adds one sample of metric name+suffix with the given labels.
func (wctx *writeRequestContext) PushSample(name, suffix string, labels []Label, timestampNsecs uint64, value float64) {
	metricName := wctx.concat(name, suffix)

	wctx.samplesBuf = append(wctx.samplesBuf, Sample{
		Value:     value,
		Timestamp: int64(timestampNsecs / 1e6),
	})

	labelsBufLen := len(wctx.labelsBuf)
	wctx.labelsBuf = append(wctx.labelsBuf, Label{Name: "__name__", Value: metricName})
	for _, label := range labels {
		wctx.labelsBuf = append(wctx.labelsBuf, Label{
			Name:  wctx.cloneString(label.Name),
			Value: wctx.cloneString(label.Value),
		})
	}

	wctx.tss = append(wctx.tss, TimeSeries{
		Labels:  wctx.labelsBuf[labelsBufLen:],
		Samples: wctx.samplesBuf[len(wctx.samplesBuf)-1:],
	})
}

// decodeMetricsData stands in for the protobuf decoder: one sample per line,
// "name suffix key=value ... value timestampNsecs".
func decodeMetricsData(data []byte, wctx *writeRequestContext) error {
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 4 {
			return errors.New("short line")
		}
		value, err := strconv.ParseFloat(f[len(f)-2], 64)
		if err != nil {
			return err
		}
		ts, err := strconv.ParseUint(f[len(f)-1], 10, 64)
		if err != nil {
			return err
		}
		var labels []Label
		for _, kv := range f[2 : len(f)-2] {
			k, v, _ := strings.Cut(kv, "=")
			labels = append(labels, Label{Name: k, Value: v})
		}
		wctx.PushSample(f[0], f[1], labels, ts, value)
	}
	return nil
}

var wctxPool sync.Pool

func getWriteRequestContext() *writeRequestContext {
	v := wctxPool.Get()
	if v == nil {
		return &writeRequestContext{}
	}
	return v.(*writeRequestContext)
}

func putWriteRequestContext(wctx *writeRequestContext) {
	wctx.reset()
	wctxPool.Put(wctx) // want `unbounded`
}

// parseData decodes data and passes the series to callback, which must not
// keep them.
func parseData(data []byte, callback func(tss []TimeSeries) error) error {
	wctx := getWriteRequestContext()
	defer putWriteRequestContext(wctx)

	if err := decodeMetricsData(data, wctx); err != nil {
		return fmt.Errorf("cannot unmarshal request from %d bytes: %w", len(data), err)
	}
	if err := callback(wctx.tss); err != nil {
		return fmt.Errorf("error when processing OpenTelemetry data: %w", err)
	}
	return nil
}

// ParseStream is the entry point for one request body.
func ParseStream(data []byte, callback func(tss []TimeSeries) error) error {
	return parseData(data, callback)
}
