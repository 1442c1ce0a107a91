// Package fixed is the fix of prometheus/prometheus#19397
// (https://github.com/prometheus/prometheus/issues/19397), as proposed in
// https://github.com/prometheus/prometheus/pull/19409: record buffers larger
// than 1 MiB are dropped instead of going back to the pool.
package fixed

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

// maxPooledRecordBytes bounds the record buffers kept for reuse.
const maxPooledRecordBytes = 1 << 20

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
	if cap(*b) > maxPooledRecordBytes {
		return
	}
	*b = (*b)[:0]
	h.bytesPool.Put(b)
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
