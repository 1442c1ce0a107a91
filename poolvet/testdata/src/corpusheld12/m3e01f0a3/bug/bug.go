// Package bug reproduces the shape of m3db/m3 commit e01f0a3
// (https://github.com/m3db/m3/commit/e01f0a3e9f9384bb7f0e33a589e3cbd842671c00,
// "No double close."): dbBuffer.Snapshot got an encoder from the pool and
// deferred its Close, then took the encoded segment with Discard, which
// closes the encoder itself (back to the pool). The deferred Close closed it
// a second time. The encoder's closed flag does not prevent this: while the
// snapshot is being persisted another goroutine may Get the encoder, whose
// Reset clears the flag, and the deferred Close then puts that user's
// encoder back.
//
// Check: doubleput (an explicit Put through Discard -> Close, under a
// deferred Close of the same encoder; reported at the Discard call, the
// explicit Put that precedes the return).
package bug

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
	defer func() {
		encoder.Close()
	}()

	for _, v := range values {
		if err := encoder.Encode(v); err != nil {
			return err
		}
	}

	segment := encoder.Discard() // want `doubleput`
	if len(segment) == 0 {
		return nil
	}
	if err := persist(segment); err != nil {
		return err
	}
	b.persisted = append(b.persisted, segment)
	return nil
}
