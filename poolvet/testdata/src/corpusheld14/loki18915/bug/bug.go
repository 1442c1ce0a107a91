// Package bug reproduces the shape of grafana/loki#18915
// (https://github.com/grafana/loki/pull/18915, commit 2326bb0, "fix
// instances of double frees"): the query engine's BufferedPipeline
// released the previous record on every Read, and its Close released every
// record it was given and then, once more, the current record, which is one
// of those records. A reference-counted record whose count reaches zero goes
// back to the allocator, so the current record was freed twice.
//
// Check: doubleput (Close's loop releases every element of p.records; the
// record in p.state.batch is one of them, released again right after; want
// at that second release. The loop itself also re-releases the records a
// previous Read already released.)
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

var EOF = errors.New("EOF")

type Record struct {
	refs    int64
	numRows int64
}

var recordPool = sync.Pool{New: func() any { return new(Record) }}

func NewRecord(rows int64) *Record {
	r := recordPool.Get().(*Record)
	r.refs = 1
	r.numRows = rows
	return r
}

func (r *Record) Retain() { atomic.AddInt64(&r.refs, 1) }

// Release drops a reference; the last one hands the record back.
func (r *Record) Release() {
	if atomic.AddInt64(&r.refs, -1) > 0 {
		return
	}
	r.numRows = 0
	recordPool.Put(r)
}

func (r *Record) NumRows() int64 { return r.numRows }

type state struct {
	batch *Record
	err   error
}

func successState(r *Record) state { return state{batch: r} }

func failureState(err error) state { return state{err: err} }

// BufferedPipeline returns a fixed set of records one after the other. It
// owns the records it is given.
type BufferedPipeline struct {
	records []*Record
	current int
	state   state
}

func NewBufferedPipeline(records ...*Record) *BufferedPipeline {
	return &BufferedPipeline{records: records, current: -1, state: failureState(EOF)}
}

// Read advances to the next record, releasing the previous one.
func (p *BufferedPipeline) Read() error {
	if p.state.batch != nil {
		p.state.batch.Release()
	}
	p.current++
	if p.current >= len(p.records) {
		p.state = failureState(EOF)
		return EOF
	}
	p.state = successState(p.records[p.current])
	return nil
}

func (p *BufferedPipeline) Value() (*Record, error) {
	return p.state.batch, p.state.err
}

// Close releases all records being held.
func (p *BufferedPipeline) Close() {
	for _, rec := range p.records {
		if rec != nil {
			rec.Release()
		}
	}
	if p.state.batch != nil {
		p.state.batch.Release() // want `doubleput`
		p.state.batch = nil
	}
	p.records = nil
}
