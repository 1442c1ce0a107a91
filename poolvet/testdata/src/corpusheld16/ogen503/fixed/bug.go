// Package fixed is the fixed twin of ogen-go/ogen#503
// (https://github.com/ogen-go/ogen/pull/503): MarshalJSON no longer takes
// its encoder from the pool; it uses an encoder of its own, whose bytes the
// caller may keep.
package fixed

import "sync"

const maxEncoderBuf = 1 << 16

// Encoder is a minimal stand-in for jx.Encoder.
type Encoder struct {
	buf   []byte
	first bool
}

func (e *Encoder) Reset() {
	e.buf = e.buf[:0]
	e.first = true
}

// Bytes returns the encoded bytes; they belong to the encoder.
func (e *Encoder) Bytes() []byte { return e.buf }

func (e *Encoder) ObjStart() {
	e.buf = append(e.buf, '{')
	e.first = true
}

func (e *Encoder) ObjEnd() { e.buf = append(e.buf, '}') }

func (e *Encoder) FieldStart(name string) {
	if !e.first {
		e.buf = append(e.buf, ',')
	}
	e.first = false
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"', ':')
}

func (e *Encoder) Raw(b []byte) { e.buf = append(e.buf, b...) }

var encPool = sync.Pool{New: func() any { return &Encoder{first: true} }}

// GetEncoder returns a reset encoder from the pool.
func GetEncoder() *Encoder {
	e := encPool.Get().(*Encoder)
	e.Reset()
	return e
}

// PutEncoder gives e back to the pool.
func PutEncoder(e *Encoder) {
	if cap(e.buf) > maxEncoderBuf {
		return
	}
	e.Reset()
	encPool.Put(e)
}

type RawProperty struct {
	Name   string
	Schema []byte
}

type RawProperties []RawProperty

// MarshalJSON implements json.Marshaler.
func (p RawProperties) MarshalJSON() ([]byte, error) {
	e := &Encoder{first: true}

	e.ObjStart()
	for _, prop := range p {
		e.FieldStart(prop.Name)
		e.Raw(prop.Schema)
	}
	e.ObjEnd()
	return e.Bytes(), nil
}
