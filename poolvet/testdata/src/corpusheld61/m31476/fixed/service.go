// Source: https://github.com/m3db/m3/pull/1476
// (commit 6e43e28ac01dcb1ab18570dc397a6109e2e399c8, "Fix annotation pooling").
//
// Bug: WriteBatchRaw decodes the request with byte slices taken from the
// thrift bytes pool. The request is tracked by a pooled writeBatchPooledReq
// registered as a finalizer on the request context; its Finalize returns
// every element's ID and annotation to the thrift bytes pool when the
// request completes. But the annotations were handed to the database's
// WriteBatch, whose writes are queued to the commit log and written to disk
// asynchronously, after the RPC has returned and Finalize has already put
// the annotation slices back into the pool for the next request to fill.
//
// Fix: ownership of the annotations is transferred to the batch: the
// service sets the bytes pool put as the batch's FinalizeAnnotationFn, the
// write batch returns the annotations when the commit log finalizes it, and
// writeBatchPooledReq.Finalize no longer puts annotations back. (The fix
// also clones annotations for async shard inserts; that path is omitted.)
//
// Check: useafterput (the annotation slices were handed to the asynchronous
// commit log through the write batch, then plainly put back into the thrift
// bytes pool by the request finalizer)
package fixed

import (
	"sync"
	"time"
)

// bytesPool is the thrift fork's pool of decoded byte slices.
var bytesPool = make(chan []byte, 4096)

// BytesPoolGet returns a byte slice of the given size from the thrift pool.
func BytesPoolGet(size int) []byte {
	select {
	case b := <-bytesPool:
		if cap(b) >= size {
			return b[:size]
		}
	default:
	}
	return make([]byte, size)
}

// BytesPoolPut returns a byte slice to the thrift pool.
func BytesPoolPut(b []byte) bool {
	select {
	case bytesPool <- b[:0]:
		return true
	default:
		return false
	}
}

// Finalizer is m3x resource.Finalizer.
type Finalizer interface {
	Finalize()
}

// Context is m3x context.Context, trimmed.
type Context struct {
	finalizers []Finalizer
}

func (c *Context) RegisterFinalizer(f Finalizer) { c.finalizers = append(c.finalizers, f) }

// Close is called when the RPC returns.
func (c *Context) Close() {
	for _, f := range c.finalizers {
		f.Finalize()
	}
	c.finalizers = nil
}

type Datapoint struct {
	Timestamp  int64
	Value      float64
	Annotation []byte
}

type WriteBatchRawRequestElement struct {
	ID        []byte
	Datapoint *Datapoint
}

type WriteBatchRawRequest struct {
	NameSpace []byte
	Elements  []*WriteBatchRawRequestElement
}

// Write is ts.Write.
type Write struct {
	ID         []byte
	Timestamp  time.Time
	Value      float64
	Annotation []byte
}

// BatchWrite is ts.BatchWrite.
type BatchWrite struct {
	Write         Write
	OriginalIndex int
}

// FinalizeAnnotationFn is ts.FinalizeAnnotationFn.
type FinalizeAnnotationFn func(b []byte)

type writeBatch struct {
	writes []BatchWrite
	ns     []byte
	// Enables callers to pool annotations by allowing them to
	// provide a function to finalize all annotations once the
	// writeBatch itself gets finalized.
	finalizeAnnotationFn FinalizeAnnotationFn
	finalizeFn           func(*writeBatch)
}

func (b *writeBatch) Add(originalIndex int, id []byte, timestamp time.Time, value float64, annotation []byte) {
	b.writes = append(b.writes, BatchWrite{
		Write:         Write{ID: id, Timestamp: timestamp, Value: value, Annotation: annotation},
		OriginalIndex: originalIndex,
	})
}

func (b *writeBatch) Iter() []BatchWrite { return b.writes }

// SetFinalizeAnnotationFn sets the function that will be called to finalize
// annotations when a WriteBatch is finalized, allowing the caller to pool them.
func (b *writeBatch) SetFinalizeAnnotationFn(f FinalizeAnnotationFn) {
	b.finalizeAnnotationFn = f
}

func (b *writeBatch) Finalize() {
	if b.finalizeAnnotationFn != nil {
		for _, write := range b.writes {
			annotation := write.Write.Annotation
			if annotation == nil {
				continue
			}

			b.finalizeAnnotationFn(annotation)
		}
	}
	b.finalizeAnnotationFn = nil

	b.ns = nil
	var zeroedWrite BatchWrite
	for i := range b.writes {
		b.writes[i] = zeroedWrite
	}
	b.writes = b.writes[:0]
	b.finalizeFn(b)
}

type writeBatchPool struct {
	pool sync.Pool
}

func (p *writeBatchPool) Get() *writeBatch {
	b, ok := p.pool.Get().(*writeBatch)
	if !ok {
		b = &writeBatch{finalizeFn: p.Put}
	}
	return b
}

func (p *writeBatchPool) Put(b *writeBatch) { p.pool.Put(b) }

// commitLog writes batches to disk asynchronously.
type commitLog struct {
	writes chan *writeBatch
	out    [][]byte
}

func newCommitLog() *commitLog {
	l := &commitLog{writes: make(chan *writeBatch, 1024)}
	go l.writeLoop()
	return l
}

func (l *commitLog) WriteBatch(b *writeBatch) {
	l.writes <- b
}

func (l *commitLog) writeLoop() {
	for b := range l.writes {
		for _, w := range b.Iter() {
			l.out = append(l.out, append([]byte(nil), w.Write.Annotation...))
		}
		b.Finalize()
	}
}

type db struct {
	batchPool writeBatchPool
	commitLog *commitLog
}

func (d *db) BatchWriter(ns []byte, batchSize int) (*writeBatch, error) {
	b := d.batchPool.Get()
	b.ns = ns
	b.finalizeAnnotationFn = nil
	return b, nil
}

func (d *db) WriteBatch(ctx *Context, ns []byte, b *writeBatch) error {
	d.commitLog.WriteBatch(b)
	return nil
}

type writeBatchPooledReq struct {
	writeReq *WriteBatchRawRequest
	pool     *writeBatchPooledReqPool
}

func (r *writeBatchPooledReq) Finalize() {
	// Return any pooled thrift byte slices to the thrift pool
	if r.writeReq != nil {
		for _, elem := range r.writeReq.Elements {
			BytesPoolPut(elem.ID)
			// Ownership of the annotations has been transferred to the BatchWriter
			// so they will get returned the pool automatically by the commitlog once
			// it finishes writing them to disk via the finalization function that
			// gets set on the WriteBatch.
		}
		r.writeReq = nil
	}

	// Return to pool
	r.pool.Put(r)
}

type writeBatchPooledReqPool struct {
	pool sync.Pool
}

func (p *writeBatchPooledReqPool) Get() *writeBatchPooledReq {
	r, ok := p.pool.Get().(*writeBatchPooledReq)
	if !ok {
		r = &writeBatchPooledReq{pool: p}
	}
	return r
}

func (p *writeBatchPooledReqPool) Put(v *writeBatchPooledReq) { p.pool.Put(v) }

type service struct {
	db                      *db
	writeBatchPooledReqPool writeBatchPooledReqPool
}

func (s *service) WriteBatchRaw(ctx *Context, req *WriteBatchRawRequest) error {
	// NB(r): Use the pooled request tracking to return thrift alloc'd bytes
	// to the thrift bytes pool.
	pooledReq := s.writeBatchPooledReqPool.Get()
	pooledReq.writeReq = req
	ctx.RegisterFinalizer(pooledReq)

	batchWriter, err := s.db.BatchWriter(req.NameSpace, len(req.Elements))
	if err != nil {
		return err
	}
	// The lifecycle of the annotations is more involved than the rest of the data
	// so we set the annotation pool put method as the finalization function and
	// let the database take care of returning them to the pool.
	batchWriter.SetFinalizeAnnotationFn(finalizeAnnotationFn)

	for i, elem := range req.Elements {
		batchWriter.Add(
			i,
			elem.ID,
			time.Unix(0, elem.Datapoint.Timestamp),
			elem.Datapoint.Value,
			elem.Datapoint.Annotation,
		)
	}

	return s.db.WriteBatch(ctx, req.NameSpace, batchWriter)
}

// finalizeAnnotationFn implements FinalizeAnnotationFn because
// BytesPoolPut(b) returns a bool but FinalizeAnnotationFn does not.
func finalizeAnnotationFn(b []byte) {
	BytesPoolPut(b)
}
