// Package bug reproduces the shape of ogen-go/ogen#503
// (https://github.com/ogen-go/ogen/pull/503, jsonschema/raw_custom.go):
// RawProperties.MarshalJSON took a JSON encoder from the jx pool, deferred
// putting it back, and returned e.Bytes(). The deferred Put ran as the
// method returned, so the caller held bytes of an encoder the next
// GetEncoder could hand out and overwrite.
//
// Check: useafterput (the result of a Bytes-style method is returned past a
// deferred Put wrapper; reported at the return).
package bug

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
	e := GetEncoder()
	defer PutEncoder(e)

	e.ObjStart()
	for _, prop := range p {
		e.FieldStart(prop.Name)
		e.Raw(prop.Schema)
	}
	e.ObjEnd()
	return e.Bytes(), nil // want `useafterput`
}
