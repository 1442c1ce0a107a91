// Package bug reproduces the shape of alex60217101990/qdf#52
// (https://github.com/alex60217101990/qdf/pull/52): decoders are shared
// through decPool by Unmarshal, UnmarshalT and the query paths. Delta+FOR
// columns are decoded through a per-decoder deltaScratch slice that grows to
// the largest column seen. unmarshal drops the scratch before the Put when it
// grew past maxRetainedDeltaScratch, but the generic UnmarshalT put the
// decoder back with whatever scratch the decode left, so a single big decode
// through UnmarshalT pinned a spike-sized buffer in the pool. The fix trims it
// in UnmarshalT too ("mirrors unmarshal").
//
// Check: unbounded (a pooled decoder whose scratch slice grows with the input
// is put back without a size bound), reported at the Put in UnmarshalT.
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
)

// maxRetainedDeltaScratch bounds the Delta+FOR scratch a pooled decoder
// keeps between calls.
const maxRetainedDeltaScratch = 1 << 14

var ErrTypeMismatch = errors.New("qdf: type mismatch")

var errShort = errors.New("qdf: short buffer")

type decState struct {
	keys []string
}

func (s *decState) reset() { s.keys = s.keys[:0] }

// Decoder reads QDF bytes.
type Decoder struct {
	buf        []byte
	i          int
	depth      int
	headerRead bool
	noCopy     bool
	state      *decState

	deltaScratch []int64
}

var decPool = sync.Pool{New: func() any { return new(Decoder) }}

func (d *Decoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.buf[d.i:])
	if n <= 0 {
		return 0, errShort
	}
	d.i += n
	return v, nil
}

// scratch returns a slice of n elements backed by the decoder's reusable
// Delta+FOR scratch, growing it when the column is larger than any before.
func (d *Decoder) scratch(n int) []int64 {
	if cap(d.deltaScratch) < n {
		d.deltaScratch = make([]int64, n)
	}
	return d.deltaScratch[:n]
}

// decodeDeltaFOR decodes a frame-of-reference + delta encoded int64 column.
func (d *Decoder) decodeDeltaFOR(dst []int64) ([]int64, error) {
	n, err := d.uvarint()
	if err != nil {
		return dst, err
	}
	base, err := d.uvarint()
	if err != nil {
		return dst, err
	}
	deltas := d.scratch(int(n))
	for k := range deltas {
		v, err := d.uvarint()
		if err != nil {
			return dst, err
		}
		deltas[k] = int64(v)
	}
	acc := int64(base)
	for _, delta := range deltas {
		acc += delta
		dst = append(dst, acc)
	}
	return dst, nil
}

func (d *Decoder) decodeInto(out any) error {
	switch v := out.(type) {
	case *[]int64:
		col, err := d.decodeDeltaFOR((*v)[:0])
		*v = col
		return err
	case *int64:
		u, err := d.uvarint()
		*v = int64(u)
		return err
	default:
		return ErrTypeMismatch
	}
}

// Unmarshal decodes data into out.
func Unmarshal(data []byte, out any) error {
	return unmarshal(data, out, false)
}

// UnmarshalNoCopy decodes data into out, letting strings alias data.
func UnmarshalNoCopy(data []byte, out any) error {
	return unmarshal(data, out, true)
}

func unmarshal(data []byte, out any, noCopy bool) error {
	if out == nil {
		return ErrTypeMismatch
	}
	dec := decPool.Get().(*Decoder)
	dec.buf = data
	dec.i = 0
	dec.depth = 0
	dec.headerRead = false
	dec.noCopy = noCopy
	if dec.state != nil {
		dec.state.reset()
	}
	err := dec.decodeInto(out)
	dec.buf = nil
	dec.noCopy = false
	if cap(dec.deltaScratch) > maxRetainedDeltaScratch {
		dec.deltaScratch = nil
	}
	decPool.Put(dec)
	return err
}

// UnmarshalT is the generic equivalent of Unmarshal.
func UnmarshalT[T any](data []byte, out *T) error {
	if out == nil {
		return ErrTypeMismatch
	}
	dec := decPool.Get().(*Decoder)
	dec.buf = data
	dec.i = 0
	dec.depth = 0
	dec.headerRead = false
	dec.noCopy = false
	if dec.state != nil {
		dec.state.reset()
	}
	err := dec.decodeInto(any(out))
	dec.buf = nil
	decPool.Put(dec) // want `unbounded`
	return err
}
