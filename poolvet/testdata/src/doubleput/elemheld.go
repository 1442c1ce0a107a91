package doubleput

import (
	"sync"
	"sync/atomic"
)

// A Close that releases every element of a slice field and then the one a
// field holds, which Read took from that slice (grafana/loki#18915).
var recPool = sync.Pool{New: func() any { return new(record) }}

type record struct {
	refs int64
	rows int
}

func (r *record) release() {
	if atomic.AddInt64(&r.refs, -1) > 0 {
		return
	}
	r.rows = 0
	recPool.Put(r)
}

type pipeState struct {
	batch *record
	err   error
}

func okState(r *record) pipeState { return pipeState{batch: r} }

type buffered struct {
	records []*record
	current int
	state   pipeState
}

func (p *buffered) Read() {
	p.current++
	if p.current < len(p.records) {
		p.state = okState(p.records[p.current])
	}
}

func (p *buffered) shut() {
	for _, r := range p.records {
		r.release()
	}
	if p.state.batch != nil {
		p.state.batch.release() // want `p.state.batch may be put into the pool twice: Read \(line 41\) stores an element of records into the field this Put reads`
	}
	p.records = nil
}

// Silent: the current record is a copy the pipeline owns on its own.
type buffered2 struct {
	records []*record
	cur     *record
}

func (p *buffered2) Read(r *record) { p.cur = r }

func (p *buffered2) shut() {
	for _, r := range p.records {
		r.release()
	}
	if p.cur != nil {
		p.cur.release()
	}
}
