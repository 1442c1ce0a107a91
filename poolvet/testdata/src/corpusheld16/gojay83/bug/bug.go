// Package bug reproduces the shape of francoispqt/gojay#83
// (https://github.com/francoispqt/gojay/issues/83): Marshal borrowed an
// encoder from a pool, deferred its Release, and returned the encoder's own
// byte slice. Release ran as Marshal returned, so another goroutine could
// borrow the same encoder (Borrow only truncated buf) and overwrite the
// bytes the first caller was still reading.
//
// Check: useafterput (a field slice of the pooled object, obtained through
// a method of the package, is returned past a deferred Put done by a
// Release method; reported at the return).
package bug

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

// Marshal encodes v and returns its JSON encoding.
func Marshal(v any) ([]byte, error) {
	switch vt := v.(type) {
	case int:
		enc := BorrowEncoder()
		defer enc.Release()
		return enc.encodeInt(vt) // want `useafterput`
	case string:
		enc := BorrowEncoder()
		defer enc.Release()
		return enc.encodeString(vt) // want `useafterput`
	}
	return nil, nil
}
