// Package bug reproduces the shape of prometheus/prometheus#19397
// (https://github.com/prometheus/prometheus/issues/19397, fix proposed in
// #19409): on Commit the head appender encodes its out-of-order samples into
// record buffers taken from the head's bytes pool, logs them to the WBL, and
// a deferred loop gives every record buffer back to the pool with no
// capacity limit. Large OOO batches grow those buffers, and the pool keeps
// them: heap profiles attributed tens of GB to collectOOORecords.
//
// The original pool is a typed zeropool of []byte; it is written here as a
// sync.Pool of *[]byte, which does not box either.
//
// Check: unbounded (a *[]byte grown by an encoder by a variable amount and
// put back without a size bound; reported at the Put in putBytesBuffer).
package bug

import (
	"encoding/binary"
	"math"
	"sync"
)

type RefSample struct {
	Ref uint64
	T   int64
	V   float64
}

// WAL is the write-behind log.
type WAL interface {
	Log(recs ...[]byte) error
}

type Head struct {
	wbl       WAL
	bytesPool sync.Pool
}

func (h *Head) getBytesBuffer() *[]byte {
	if b, ok := h.bytesPool.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 1024)
	return &b
}

func (h *Head) putBytesBuffer(b *[]byte) {
	*b = (*b)[:0]
	h.bytesPool.Put(b) // want `unbounded`
}

// Encoder encodes WAL records.
type Encoder struct{}

// Samples appends the record for samples to b and returns it.
func (e *Encoder) Samples(samples []RefSample, b []byte) []byte {
	b = append(b, 2) // record type
	for _, s := range samples {
		b = binary.BigEndian.AppendUint64(b, s.Ref)
		b = binary.BigEndian.AppendUint64(b, uint64(s.T))
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(s.V))
	}
	return b
}

type headAppender struct {
	head       *Head
	oooSamples []RefSample
}

func (a *headAppender) AppendOOO(ref uint64, t int64, v float64) {
	a.oooSamples = append(a.oooSamples, RefSample{Ref: ref, T: t, V: v})
}

func (a *headAppender) Commit() error {
	var (
		enc        Encoder
		oooRecords []*[]byte
	)
	defer func() {
		for _, bp := range oooRecords {
			a.head.putBytesBuffer(bp)
		}
	}()
	collectOOORecords := func() {
		if a.head.wbl == nil || len(a.oooSamples) == 0 {
			return
		}
		bp := a.head.getBytesBuffer()
		*bp = enc.Samples(a.oooSamples, *bp)
		oooRecords = append(oooRecords, bp)
	}

	collectOOORecords()
	if a.head.wbl != nil && len(oooRecords) > 0 {
		recs := make([][]byte, 0, len(oooRecords))
		for _, bp := range oooRecords {
			recs = append(recs, *bp)
		}
		if err := a.head.wbl.Log(recs...); err != nil {
			return err
		}
	}
	a.oooSamples = a.oooSamples[:0]
	return nil
}
