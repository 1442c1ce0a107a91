// Package bug reproduces the shape of wundergraph/cosmo#2332 (https://github.com/wundergraph/cosmo/pull/2332):
// "feat: prometheus sink for gqlmetrics". The generic batching exporter started taking its batch slices from
// a sync.Pool. In the reviewed revision the exporter loop handed a full batch to prepareAndSendBatch, which
// exports it from a new goroutine (with retries and back-off), and then immediately returned the same batch
// to the pool and took a fresh one. The next Get hands the backing array to the next batch, which is appended
// to while the export goroutine is still reading it: corrupted or duplicated batches. Review (critical):
// return the buffer only after the export finished, inside the goroutine; the merged code does that.
// Check: useafterput (the batch is put back while the export goroutine it was handed to still uses it;
// reported at each premature putBatchBuffer).
package bug

import (
	"context"
	"log"
	"sync"
	"sync/atomic"
	"time"
)

type Sink[T any] interface {
	Export(ctx context.Context, batch []T) error
}

type Settings struct {
	BatchSize int
	QueueSize int
	Interval  time.Duration
	MaxRetry  int
}

type Exporter[T any] struct {
	settings        Settings
	sink            Sink[T]
	queue           chan T
	shutdownSignal  chan struct{}
	inflightBatches atomic.Int64
	batchBufferPool *sync.Pool
}

func NewExporter[T any](sink Sink[T], settings Settings) *Exporter[T] {
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

func (e *Exporter[T]) getBatchBuffer() []T {
	bufferPtr := e.batchBufferPool.Get().(*[]T)
	buffer := *bufferPtr
	return buffer[:0]
}

func (e *Exporter[T]) putBatchBuffer(buffer []T) {
	if cap(buffer) > e.settings.BatchSize {
		return
	}
	clear(buffer)
	buffer = buffer[:0]
	e.batchBufferPool.Put(&buffer)
}

func (e *Exporter[T]) exportBatch(batch []T) error {
	if len(batch) == 0 {
		return nil
	}
	return e.sink.Export(context.Background(), batch)
}

// prepareAndSendBatch exports the batch from a new goroutine.
func (e *Exporter[T]) prepareAndSendBatch(batch []T) {
	e.inflightBatches.Add(1)
	go func() {
		defer e.inflightBatches.Add(-1)
		e.exportBatchWithRetry(batch)
	}()
}

func (e *Exporter[T]) exportBatchWithRetry(batch []T) {
	err := e.exportBatch(batch)
	for retry := 0; err != nil && retry < e.settings.MaxRetry; retry++ {
		time.Sleep(time.Duration(retry+1) * 100 * time.Millisecond)
		err = e.exportBatch(batch)
	}
	if err != nil {
		log.Printf("failed to export batch of %d: %v", len(batch), err)
	}
}

func (e *Exporter[T]) start() {
	ticker := time.NewTicker(e.settings.Interval)
	defer ticker.Stop()

	buffer := e.getBatchBuffer()
	for {
		select {
		case <-ticker.C:
			if len(buffer) > 0 {
				e.prepareAndSendBatch(buffer)
				e.putBatchBuffer(buffer) // want `useafterput`
				buffer = e.getBatchBuffer()
			}
		case item := <-e.queue:
			buffer = append(buffer, item)
			if len(buffer) == e.settings.BatchSize {
				e.prepareAndSendBatch(buffer)
				e.putBatchBuffer(buffer) // want `useafterput`
				buffer = e.getBatchBuffer()
			}
		case <-e.shutdownSignal:
			if len(buffer) > 0 {
				e.prepareAndSendBatch(buffer)
			}
			return
		}
	}
}
