// Package bug reproduces the shape of open-telemetry/opentelemetry-go#8233
// (https://github.com/open-telemetry/opentelemetry-go/pull/8233): the log SDK's
// SimpleProcessor borrows a one-element *[]Record from a package-level pool,
// copies the emitted record into slot 0, exports it and puts the slice back in
// a deferred closure without erasing the slot. The idle pooled slice keeps the
// last record (its body, attributes and everything they reference) alive.
// The fix clears the slice in the deferred closure before Put.
//
// Check: noreset (at the deferred Put that returns the slice still holding the record).
package bug

import (
	"context"
	"sync"
)

type KeyValue struct {
	Key   string
	Value any
}

type Record struct {
	Body       string
	Attributes []KeyValue
	Severity   int
}

type Exporter interface {
	Export(ctx context.Context, records []Record) error
}

type processedCounter struct {
	mu    sync.Mutex
	count int
	errs  int
}

func (c *processedCounter) LogProcessed(_ context.Context, err error) {
	c.mu.Lock()
	c.count++
	if err != nil {
		c.errs++
	}
	c.mu.Unlock()
}

type SimpleProcessor struct {
	mu       sync.Mutex
	exporter Exporter
	inst     *processedCounter
}

func NewSimpleProcessor(exporter Exporter) *SimpleProcessor {
	return &SimpleProcessor{exporter: exporter, inst: &processedCounter{}}
}

var simpleProcRecordsPool = sync.Pool{
	New: func() any {
		records := make([]Record, 1)
		return &records
	},
}

// OnEmit exports the record synchronously.
func (s *SimpleProcessor) OnEmit(ctx context.Context, r *Record) (err error) {
	if s.exporter == nil {
		return nil
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	records := simpleProcRecordsPool.Get().(*[]Record)
	(*records)[0] = *r
	defer func() {
		simpleProcRecordsPool.Put(records) // want `noreset`
	}()

	if s.inst != nil {
		defer func() {
			s.inst.LogProcessed(ctx, err)
		}()
	}
	return s.exporter.Export(ctx, *records)
}
