// Source: https://github.com/Azure/adx-mon/pull/404 ("Fix panic/corrupted labels")
// Commit: https://github.com/Azure/adx-mon/commit/f53b358e86159465f3773af30e277493e9f4ea1e
// ("Don't release WriteRequest to the pool in proxy").
//
// Bug: the metrics Handler.HandleReceive gets a *prompb.WriteRequest from
// prompb.WriteRequestPool and defers its Put (which Resets it and puts
// every TimeSeries, Label and Sample back into their pools). It then hands
// the request to its RequestWriter. In the proxy path that writer is a
// RemoteWriteProxy, whose Write only queues the request on a channel; a
// flush goroutine later batches its TimeSeries and sendBatch sorts and
// sends them. By then the handler has returned and the deferred Put has
// recycled the request and its series, so the queued series are reused
// and cleared while still buffered: panics and corrupted labels.
// Fix: do not put the WriteRequest back into the pool in the handler.
//
// Check: useafterput (at the requestWriter.Write call, which hands the
// pooled request to the proxy queue that outlives the handler while the
// deferred Put returns it to the pool)
package bug

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sort"
	"sync"
	"time"
)

type Resetter interface {
	Reset()
}

type Pool[T Resetter] struct {
	p   *sync.Pool
	New func() T
}

func NewPool[T Resetter](new func() T) *Pool[T] {
	return &Pool[T]{
		p:   &sync.Pool{New: func() interface{} { return new() }},
		New: new,
	}
}

func (p *Pool[T]) Put(r T) {
	r.Reset()
	p.p.Put(r)
}

func (p *Pool[T]) Get() T {
	return p.p.Get().(T)
}

var (
	WriteRequestPool = NewPool[*WriteRequest](func() *WriteRequest { return &WriteRequest{} })
	TimeSeriesPool   = NewPool[*TimeSeries](func() *TimeSeries { return &TimeSeries{} })
	LabelPool        = NewPool[*Label](func() *Label { return &Label{} })
)

// WriteRequest represents Prometheus remote write API request
type WriteRequest struct {
	Timeseries []*TimeSeries
}

// TimeSeries is a timeseries.
type TimeSeries struct {
	Labels []*Label
}

// Label is a timeseries label
type Label struct {
	Name  []byte
	Value []byte
}

func (l *Label) Reset() {
	l.Name = l.Name[:0]
	l.Value = l.Value[:0]
}

func (ts *TimeSeries) Reset() {
	for i := range ts.Labels {
		LabelPool.Put(ts.Labels[i])
	}
	ts.Labels = ts.Labels[:0]
}

func (wr *WriteRequest) Reset() {
	for i := range wr.Timeseries {
		TimeSeriesPool.Put(wr.Timeseries[i])
	}
	wr.Timeseries = wr.Timeseries[:0]
}

// Unmarshal decodes one series per line, the line being its __name__.
func (wr *WriteRequest) Unmarshal(src []byte) error {
	wr.Timeseries = wr.Timeseries[:0]
	for _, line := range bytes.Split(src, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		ts := TimeSeriesPool.Get()
		l := LabelPool.Get()
		l.Name = append(l.Name, "__name__"...)
		l.Value = append(l.Value, line...)
		ts.Labels = append(ts.Labels, l)
		wr.Timeseries = append(wr.Timeseries, ts)
	}
	return nil
}

func MetricName(ts *TimeSeries) []byte {
	return ts.Labels[0].Value
}

type RequestWriter interface {
	Write(ctx context.Context, wr *WriteRequest) error
}

type Handler struct {
	requestWriter RequestWriter
}

func (s *Handler) HandleReceive(w http.ResponseWriter, r *http.Request, reqBuf []byte) {
	// Note: this cause allocations, but holding onto them in a pool causes a lot of memory to be used over time.
	req := WriteRequestPool.Get()
	defer WriteRequestPool.Put(req)
	if err := req.Unmarshal(reqBuf); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}

	if len(req.Timeseries) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}

	err := s.requestWriter.Write(r.Context(), req) // want `useafterput`
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

type RemoteWriteProxy struct {
	maxBatchSize int
	// queue is the channel where incoming writes are queued.
	queue chan *WriteRequest
	// ready is the channel where writes are batched up to maxBatchSize.
	ready chan *WriteRequest
	send  func(*WriteRequest) error
}

func (r *RemoteWriteProxy) Write(ctx context.Context, wr *WriteRequest) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case r.queue <- wr:
		return nil
	case <-time.After(15 * time.Second):
		return errors.New("writes are throttled")
	}
}

func (c *RemoteWriteProxy) flush(ctx context.Context) {
	pendingBatch := &WriteRequest{}
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-c.queue:
			pendingBatch.Timeseries = append(pendingBatch.Timeseries, b.Timeseries...)
			for len(pendingBatch.Timeseries) >= c.maxBatchSize {
				nextBatch := WriteRequestPool.Get()
				nextBatch.Timeseries = append(nextBatch.Timeseries, pendingBatch.Timeseries[:c.maxBatchSize]...)
				pendingBatch.Timeseries = append(pendingBatch.Timeseries[:0], pendingBatch.Timeseries[c.maxBatchSize:]...)
				c.ready <- nextBatch
			}
		}
	}
}

func (p *RemoteWriteProxy) sendBatch(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case wr := <-p.ready:
			sort.Slice(wr.Timeseries, func(i, j int) bool {
				return bytes.Compare(MetricName(wr.Timeseries[i]), MetricName(wr.Timeseries[j])) < 0
			})
			if err := p.send(wr); err != nil {
				return err
			}
			WriteRequestPool.Put(wr)
		}
	}
}
