// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics#11040
// (https://github.com/VictoriaMetrics/VictoriaMetrics/pull/11040, commit 3daacc8ca1): the
// remote-write unmarshaler decodes each native histogram into a nativeHistogramContext taken
// from nhctxPool (getNativeHistogramContext / deferred putNativeHistogramContext). reset()
// only truncates the span slices to [:0], and appendBucketSpan grows the slice back in place
// over the old backing array, then decodes the wire fields into that slot. A span whose offset
// is the proto3 default 0 is omitted from the wire, so the slot keeps the offset of whatever
// histogram used the pooled context before, and the bucket lands on a wrong vmrange. The fix
// zeroes the reused slot before decoding into it.
// Check: noreset (decoding into pooled memory that was not cleared; reported where
// appendBucketSpan re-extends the pooled slice).
package bug

import (
	"errors"
	"sync"
)

type bucketSpan struct {
	offset int32
	length uint32
}

type nativeHistogramContext struct {
	schema         int32
	sum            float64
	timestamp      int64
	positiveSpans  []bucketSpan
	positiveDeltas []int64
}

func (nhctx *nativeHistogramContext) reset() {
	nhctx.schema = 0
	nhctx.sum = 0
	nhctx.timestamp = 0
	nhctx.positiveSpans = nhctx.positiveSpans[:0]
	nhctx.positiveDeltas = nhctx.positiveDeltas[:0]
}

var nhctxPool sync.Pool

const maxPooledSpans = 1024

func getNativeHistogramContext() *nativeHistogramContext {
	v := nhctxPool.Get()
	if v == nil {
		return &nativeHistogramContext{}
	}
	return v.(*nativeHistogramContext)
}

func putNativeHistogramContext(nhctx *nativeHistogramContext) {
	if cap(nhctx.positiveSpans) > maxPooledSpans || cap(nhctx.positiveDeltas) > maxPooledSpans {
		return
	}
	nhctx.reset()
	nhctxPool.Put(nhctx)
}

// field is one decoded (number, value) pair of a message.
type field struct {
	num uint8
	val int64
}

var errBadField = errors.New("bad field")

// appendBucketSpan decodes one BucketSpan message (offset = 1, length = 2; fields equal to
// zero are not on the wire) and appends it to spans.
func appendBucketSpan(spans []bucketSpan, src []field) ([]bucketSpan, error) {
	if len(spans) < cap(spans) {
		spans = spans[:len(spans)+1] // want `noreset`
	} else {
		spans = append(spans, bucketSpan{})
	}
	span := &spans[len(spans)-1]
	for _, f := range src {
		switch f.num {
		case 1:
			span.offset = int32(f.val)
		case 2:
			if f.val < 0 {
				return spans, errBadField
			}
			span.length = uint32(f.val)
		}
	}
	return spans, nil
}

// Histogram is the decoded form handed to the caller.
type Histogram struct {
	Schema    int32
	Timestamp int64
	Offsets   []int32
	Lengths   []uint32
}

// unmarshalHistogram decodes one native histogram; spans holds one sub-message per span.
func unmarshalHistogram(schema int32, ts int64, spans [][]field, deltas []int64) (Histogram, error) {
	nhctx := getNativeHistogramContext()
	defer putNativeHistogramContext(nhctx)

	nhctx.schema = schema
	nhctx.timestamp = ts
	for _, s := range spans {
		var err error
		nhctx.positiveSpans, err = appendBucketSpan(nhctx.positiveSpans, s)
		if err != nil {
			return Histogram{}, err
		}
	}
	nhctx.positiveDeltas = append(nhctx.positiveDeltas, deltas...)

	h := Histogram{Schema: nhctx.schema, Timestamp: nhctx.timestamp}
	for _, sp := range nhctx.positiveSpans {
		h.Offsets = append(h.Offsets, sp.offset)
		h.Lengths = append(h.Lengths, sp.length)
	}
	return h, nil
}
