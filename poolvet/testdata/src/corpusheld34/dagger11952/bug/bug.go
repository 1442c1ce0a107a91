// Package bug reproduces the shape of dagger/dagger#11952
// (https://github.com/dagger/dagger/pull/11952, fix in commit
// https://github.com/dagger/dagger/commit/68485dfbd11e8dd85c0e66cc27f2289d4290f356):
// the OpenTelemetry periodic reader takes a ResourceMetrics from a sync.Pool,
// collects into it, calls the exporter and puts it back as soon as Export
// returns. Dagger's TUI exporter (FrontendMetricExporter.Export) did not export
// synchronously any more: it dispatched a closure capturing the pooled
// *ResourceMetrics to the UI goroutine and returned nil at once. By the time
// the closure ran, the reader had put the struct back and the next collection
// cycle was already rewriting it.
//
// Check: useafterput (the pooled ResourceMetrics is read in the dispatched
// closure after the reader's Put; report at that use).
package bug

import (
	"context"
	"sync"
	"time"
)

// --- a small stand-in for the metrics SDK ---

type Resource struct{ attrs map[string]string }

type Metrics struct {
	Name string
	Data []float64
}

type ScopeMetrics struct {
	Scope   string
	Metrics []Metrics
}

type ResourceMetrics struct {
	Resource     *Resource
	ScopeMetrics []ScopeMetrics
}

type Exporter interface {
	Export(ctx context.Context, rm *ResourceMetrics) error
}

type producer func() []ScopeMetrics

type PeriodicReader struct {
	res      *Resource
	produce  producer
	exporter Exporter
	interval time.Duration

	rmPool sync.Pool
}

func NewPeriodicReader(res *Resource, p producer, exp Exporter) *PeriodicReader {
	r := &PeriodicReader{res: res, produce: p, exporter: exp, interval: time.Second}
	r.rmPool = sync.Pool{New: func() any { return &ResourceMetrics{} }}
	return r
}

// collect overwrites every field of rm, reusing its slices.
func (r *PeriodicReader) collect(rm *ResourceMetrics) {
	rm.Resource = r.res
	rm.ScopeMetrics = append(rm.ScopeMetrics[:0], r.produce()...)
}

func (r *PeriodicReader) collectAndExport(ctx context.Context) error {
	rm := r.rmPool.Get().(*ResourceMetrics)
	r.collect(rm)
	err := r.exporter.Export(ctx, rm)
	r.rmPool.Put(rm)
	return err
}

func (r *PeriodicReader) Run(ctx context.Context) {
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = r.collectAndExport(ctx)
		}
	}
}

// --- the TUI side ---

type metricsDB struct {
	mu     sync.Mutex
	points map[string][]float64
}

type dbExporter struct{ db *metricsDB }

func (e dbExporter) Export(_ context.Context, rm *ResourceMetrics) error {
	e.db.mu.Lock()
	defer e.db.mu.Unlock()
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			e.db.points[m.Name] = append(e.db.points[m.Name], m.Data...)
		}
	}
	return nil
}

func (db *metricsDB) MetricExporter() Exporter { return dbExporter{db: db} }

type FrontendMetricExporter struct {
	db       *metricsDB
	dispatch func(func())
	Update   func()
}

func (fe FrontendMetricExporter) Export(ctx context.Context, resourceMetrics *ResourceMetrics) error {
	fe.dispatch(func() {
		fe.db.MetricExporter().Export(ctx, resourceMetrics) // want `useafterput`
		fe.Update()
	})
	return nil
}

// uiLoop runs dispatched closures on the UI goroutine.
func uiLoop(msgs <-chan func()) {
	for fn := range msgs {
		fn()
	}
}

func Start(ctx context.Context, res *Resource, p producer) *metricsDB {
	db := &metricsDB{points: map[string][]float64{}}
	msgs := make(chan func(), 64)
	go uiLoop(msgs)
	fe := FrontendMetricExporter{
		db:       db,
		dispatch: func(fn func()) { msgs <- fn },
		Update:   func() {},
	}
	go NewPeriodicReader(res, p, fe).Run(ctx)
	return db
}
