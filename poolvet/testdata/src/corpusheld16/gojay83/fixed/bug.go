// Package fixed is the fixed twin of francoispqt/gojay#83
// (https://github.com/francoispqt/gojay/issues/83). gojay's own fix gave
// every borrowed encoder a fresh buffer; here Marshal takes the obvious
// route and returns a copy of the encoded bytes, so nothing the caller
// keeps is owned by the pooled encoder.
package fixed

import (
	"strconv"
	"sync"
)

const maxPooledBuf = 1 << 16

type Encoder struct {
	buf      []byte
	isPooled byte
	err      error
}

var encPool = sync.Pool{New: func() any { return &Encoder{buf: make([]byte, 0, 512)} }}

// BorrowEncoder takes an encoder from the pool; it reuses the old buffer.
func BorrowEncoder() *Encoder {
	enc := encPool.Get().(*Encoder)
	enc.buf = enc.buf[:0]
	enc.isPooled = 0
	enc.err = nil
	return enc
}

// Release gives the encoder back; it must not be used afterwards.
func (enc *Encoder) Release() {
	if cap(enc.buf) > maxPooledBuf {
		return
	}
	enc.isPooled = 1
	encPool.Put(enc)
}

func (enc *Encoder) encodeInt(n int) ([]byte, error) {
	enc.buf = strconv.AppendInt(enc.buf, int64(n), 10)
	return enc.buf, enc.err
}

func (enc *Encoder) encodeString(s string) ([]byte, error) {
	enc.buf = append(enc.buf, '"')
	enc.buf = append(enc.buf, s...)
	enc.buf = append(enc.buf, '"')
	return enc.buf, enc.err
}

// Marshal encodes v and returns its JSON encoding, in memory of its own.
func Marshal(v any) ([]byte, error) {
	switch vt := v.(type) {
	case int:
		enc := BorrowEncoder()
		defer enc.Release()
		b, err := enc.encodeInt(vt)
		return append([]byte(nil), b...), err
	case string:
		enc := BorrowEncoder()
		defer enc.Release()
		b, err := enc.encodeString(vt)
		return append([]byte(nil), b...), err
	}
	return nil, nil
}
