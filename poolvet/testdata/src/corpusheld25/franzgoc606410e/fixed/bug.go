// Package bug reproduces the shape of twmb/franz-go commit c606410e
// (https://github.com/twmb/franz-go/commit/c606410ecb5c6c3f61be76c71b573da0df9786cb,
// "kgo: simplify share-consumer ack tracking, fix pool-reuse race"): the
// share consumer remembered the *Record pointers it returned from a poll
// (lastPolled) so that the next poll could auto-accept the records the user
// did not ack. Users with pooling enabled call Record.Recycle once done with
// a record, which puts it back into the record pool; the fetch loop then
// reuses it for a later batch. finalizePreviousPoll, run at the start of the
// next poll, dereferenced each remembered *Record to find its ack state, so
// it read recycled records. This is the fixed twin: lastPolled holds the ack
// states themselves (allocated outside the pooled records) and finalize never
// dereferences a *Record after the poll returned.
//
// Check: useafterput (fixed twin, no report expected).
package bug

import (
	"sync"
	"sync/atomic"
)

const (
	ackNone int32 = iota
	AckAccept
	AckRelease
	AckRenew
)

type shareAckState struct {
	status atomic.Int32
	offset int64
}

// Record is a consumed record; with pooling its memory is reused after
// Recycle.
type Record struct {
	Offset int64
	Value  []byte
	ack    *shareAckState
}

var recordPool = sync.Pool{New: func() any { return new(Record) }}

// Recycle gives the record back; using it afterwards is invalid.
func (r *Record) Recycle() {
	*r = Record{}
	recordPool.Put(r)
}

// Ack records an explicit outcome for a record.
func (r *Record) Ack(status int32) {
	if r.ack != nil {
		r.ack.status.CompareAndSwap(ackNone, status)
	}
}

type shareConsumer struct {
	mu         sync.Mutex
	nextOffset int64
	lastPolled []*shareAckState
	pending    []int64
}

func (sc *shareConsumer) fetch(n int) []*Record {
	recs := make([]*Record, 0, n)
	for i := 0; i < n; i++ {
		r := recordPool.Get().(*Record)
		r.Offset = sc.nextOffset
		r.ack = &shareAckState{offset: sc.nextOffset}
		sc.nextOffset++
		recs = append(recs, r)
	}
	return recs
}

// finalizePreviousPoll auto-accepts every state of the previous poll that
// the user did not ack.
func (sc *shareConsumer) finalizePreviousPoll() {
	if len(sc.lastPolled) == 0 {
		return
	}
	for _, st := range sc.lastPolled {
		if st == nil {
			continue
		}
		if st.status.CompareAndSwap(ackNone, AckAccept) {
			sc.pending = append(sc.pending, st.offset)
		}
	}
	clear(sc.lastPolled)
	sc.lastPolled = sc.lastPolled[:0]
}

func (sc *shareConsumer) trackLastPolled(recs []*Record) {
	sc.lastPolled = sc.lastPolled[:0]
	for _, r := range recs {
		sc.lastPolled = append(sc.lastPolled, r.ack)
	}
}

// PollRecords finalizes the previous poll and returns new records.
func (sc *shareConsumer) PollRecords(n int) []*Record {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.finalizePreviousPoll()
	recs := sc.fetch(n)
	sc.trackLastPolled(recs)
	return recs
}

// consume is the documented user loop: process, then recycle.
func consume(sc *shareConsumer, rounds int, handle func(*Record)) {
	for i := 0; i < rounds; i++ {
		for _, r := range sc.PollRecords(8) {
			handle(r)
			r.Recycle()
		}
	}
}

func Run() {
	consume(&shareConsumer{}, 3, func(r *Record) { _ = r.Value })
}
