// Package bug reproduces the shape of wundergraph/cosmo#2990
// (https://github.com/wundergraph/cosmo/pull/2990, commit 91268ec5e "limit pool
// size of exporter and zero pointers"): the router's generic batch Exporter keeps
// batch slices in a sync.Pool of *[]T. After a batch is exported, putBatchBuffer
// only re-slices it to [:0] before Put. With T a pointer type (the router's usage
// records, which reference request data), the backing array still holds every
// item of the last batch, so each idle pooled buffer pins a full batch of
// already-exported records until the slots happen to be overwritten.
//
// Check: noreset (the [:0] truncation of a pointer slice at the Put in
// putBatchBuffer). The capacity guard the same commit added is present in both
// twins so that only the stale references differ.
package bug

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

type Sink[T any] interface {
	Export(ctx context.Context, batch []T) error
}

type ExporterSettings struct {
	BatchSize int
	QueueSize int
	Interval  time.Duration
}

type Exporter[T any] struct {
	settings        *ExporterSettings
	sink            Sink[T]
	queue           chan T
	shutdownSignal  chan struct{}
	inflightBatches atomic.Int64
	batchBufferPool *sync.Pool // batch slice buffers, to cut allocations
}

func NewExporter[T any](sink Sink[T], settings *ExporterSettings) *Exporter[T] {
	e := &Exporter[T]{
		settings:       settings,
		sink:           sink,
		queue:          make(chan T, settings.QueueSize),
		shutdownSignal: make(chan struct{}),
		batchBufferPool: &sync.Pool{
			New: func() any {
				buffer := make([]T, 0, settings.BatchSize)
				return &buffer
			},
		},
	}
	go e.start()
	return e
}

// getBatchBuffer hands out an empty buffer with batch-size capacity.
func (e *Exporter[T]) getBatchBuffer() []T {
	bufferPtr := e.batchBufferPool.Get().(*[]T)
	buffer := *bufferPtr
	return buffer[:0]
}

// putBatchBuffer gives a batch buffer back once its export has finished.
func (e *Exporter[T]) putBatchBuffer(buffer []T) {
	if cap(buffer) > e.settings.BatchSize {
		return
	}
	// Shrink to zero length; the capacity is what gets reused.
	buffer = buffer[:0]
	e.batchBufferPool.Put(&buffer) // want `noreset`
}

func (e *Exporter[T]) Record(item T) bool {
	select {
	case e.queue <- item:
		return true
	default:
		return false
	}
}

func (e *Exporter[T]) prepareAndSendBatch(batch []T) {
	e.inflightBatches.Add(1)
	go func() {
		defer e.inflightBatches.Add(-1)
		defer e.putBatchBuffer(batch) // back to the pool once exported
		_ = e.sink.Export(context.Background(), batch)
	}()
}

func (e *Exporter[T]) start() {
	ticker := time.NewTicker(e.settings.Interval)
	defer ticker.Stop()

	var buffer []T
	for {
		if buffer == nil {
			buffer = e.getBatchBuffer()
		}
		select {
		case <-ticker.C:
			if len(buffer) > 0 {
				e.prepareAndSendBatch(buffer)
				buffer = nil // ownership moved to the export goroutine
			}
		case item := <-e.queue:
			buffer = append(buffer, item)
			if len(buffer) == e.settings.BatchSize {
				e.prepareAndSendBatch(buffer)
				buffer = nil
			}
		case <-e.shutdownSignal:
			if len(buffer) > 0 {
				e.prepareAndSendBatch(buffer)
			}
			return
		}
	}
}

func (e *Exporter[T]) Shutdown() {
	close(e.shutdownSignal)
}

// UsageInfo is what the router records per operation; it points into request data.
type UsageInfo struct {
	OperationName string
	Query         *string
	Variables     map[string]any
	Attributes    map[string]string
}

func NewUsageExporter(sink Sink[*UsageInfo]) *Exporter[*UsageInfo] {
	return NewExporter[*UsageInfo](sink, &ExporterSettings{
		BatchSize: 1024,
		QueueSize: 10240,
		Interval:  10 * time.Second,
	})
}
