// Package fixed is the fix of m3db/m3 commit e01f0a3
// (https://github.com/m3db/m3/commit/e01f0a3e9f9384bb7f0e33a589e3cbd842671c00):
// the deferred function no longer closes the encoder, because Discard
// already does; only the error returns before Discard close it.
package fixed

import (
	"errors"
	"sync"
)

type encoder struct {
	buf    []byte
	closed bool
}

const maxEncoderCap = 1 << 20

var encoderPool = sync.Pool{New: func() any { return &encoder{} }}

func getEncoder() *encoder {
	enc := encoderPool.Get().(*encoder)
	enc.Reset()
	return enc
}

func (enc *encoder) Reset() {
	enc.buf = enc.buf[:0]
	enc.closed = false
}

func (enc *encoder) Encode(v float64) error {
	if v != v {
		return errors.New("NaN")
	}
	enc.buf = append(enc.buf, byte(int64(v)))
	return nil
}

// Close returns the encoder to the pool.
func (enc *encoder) Close() {
	if enc.closed {
		return
	}
	enc.closed = true
	if cap(enc.buf) > maxEncoderCap {
		return
	}
	enc.buf = enc.buf[:0]
	encoderPool.Put(enc)
}

// Discard closes the encoder and hands its data to the caller.
func (enc *encoder) Discard() []byte {
	seg := append([]byte(nil), enc.buf...)
	enc.Close()
	return seg
}

type dbBuffer struct {
	persisted [][]byte
}

func (b *dbBuffer) Snapshot(values []float64, persist func([]byte) error) error {
	encoder := getEncoder()

	for _, v := range values {
		if err := encoder.Encode(v); err != nil {
			encoder.Close()
			return err
		}
	}

	// Discard closes the encoder, so nothing else may close it.
	segment := encoder.Discard()
	if len(segment) == 0 {
		return nil
	}
	if err := persist(segment); err != nil {
		return err
	}
	b.persisted = append(b.persisted, segment)
	return nil
}
