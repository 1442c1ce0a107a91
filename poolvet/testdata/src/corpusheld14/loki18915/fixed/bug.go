// Package fixed is the fix of grafana/loki#18915
// (https://github.com/grafana/loki/pull/18915, commit 2326bb0): Read no
// longer releases the previous record (the caller that got it from Value
// releases it), and Close releases only the records that were never handed
// out, without a separate release of the current one.
package fixed

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

// Read advances to the next record. The record Value returns then belongs
// to the caller, who releases it.
func (p *BufferedPipeline) Read() error {
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

// Close releases the records that were never handed out.
func (p *BufferedPipeline) Close() {
	start := min(p.current+1, len(p.records))
	for _, rec := range p.records[start:] {
		if rec != nil {
			rec.Release()
		}
	}
	p.state = failureState(EOF)
	p.records = nil
}
