// Package bug reproduces the shape of DataDog/dd-trace-go#3430
// (https://github.com/DataDog/dd-trace-go/pull/3430, "internal/telemetry: fix
// telemetry metric submit datarace double pool insertion"). A metric keeps its
// latest point behind an atomic pointer. Payload, run at every telemetry
// flush, put that point back into the pool while the metric still pointed at
// it; the next flush put it again, and so did the next Submit when it swapped
// the point out. One point ended up in the pool twice and two metrics shared it.
//
// Check: doubleput (a method puts memory its receiver still holds and leaves
// the field pointing at it; the report is expected at that Put, by analogy
// with the docs' Close-twice rule).
package bug

import (
	"sync"
	"sync/atomic"
	"time"
)

type metricPoint struct {
	value float64
	time  time.Time
}

// MetricData is what a flush sends.
type MetricData struct {
	Name  string
	Value float64
	At    int64
}

type metricHandle interface {
	Submit(v float64)
	Payload() MetricData
}

type metric struct {
	key  string
	ptr  atomic.Pointer[metricPoint]
	pool *sync.Pool
}

func (m *metric) payload(p *metricPoint) MetricData {
	return MetricData{Name: m.key, Value: p.value, At: p.time.Unix()}
}

// Payload reports the current point.
func (m *metric) Payload() MetricData {
	point := m.ptr.Load()
	if point == nil {
		return MetricData{}
	}
	defer m.pool.Put(point) // want `doubleput`
	return m.payload(point)
}

type count struct{ metric }

func (m *count) Submit(v float64) {
	newPoint := m.pool.Get().(*metricPoint)
	newPoint.time = time.Now()
	for {
		oldPoint := m.ptr.Load()
		old := 0.0
		if oldPoint != nil {
			old = oldPoint.value
		}
		newPoint.value = old + v
		if m.ptr.CompareAndSwap(oldPoint, newPoint) {
			if oldPoint != nil {
				m.pool.Put(oldPoint)
			}
			return
		}
	}
}

type gauge struct{ metric }

func (g *gauge) Submit(v float64) {
	newPoint := g.pool.Get().(*metricPoint)
	newPoint.time = time.Now()
	newPoint.value = v
	for {
		oldPoint := g.ptr.Load()
		if g.ptr.CompareAndSwap(oldPoint, newPoint) {
			if oldPoint != nil {
				g.pool.Put(oldPoint)
			}
			return
		}
	}
}

type metrics struct {
	mu    sync.Mutex
	store map[string]metricHandle
	pool  *sync.Pool
}

func newMetrics() *metrics {
	return &metrics{
		store: map[string]metricHandle{},
		pool:  &sync.Pool{New: func() any { return &metricPoint{} }},
	}
}

// LoadOrStore returns the handle of a metric, creating it on first use.
func (m *metrics) LoadOrStore(name string, isCount bool) metricHandle {
	m.mu.Lock()
	defer m.mu.Unlock()
	if h, ok := m.store[name]; ok {
		return h
	}
	var h metricHandle
	if isCount {
		h = &count{metric{key: name, pool: m.pool}}
	} else {
		h = &gauge{metric{key: name, pool: m.pool}}
	}
	m.store[name] = h
	return h
}

// Flush collects every metric's payload; it runs periodically.
func (m *metrics) Flush() []MetricData {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]MetricData, 0, len(m.store))
	for _, h := range m.store {
		if d := h.Payload(); d.Name != "" {
			out = append(out, d)
		}
	}
	return out
}
