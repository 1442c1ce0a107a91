// Package fixed is the fix of m3db/m3 commit 7bab886
// (https://github.com/m3db/m3/commit/7bab8868780f65f2741cf1375486919d129e8b91):
// the encoders are closed only by Discard in newIOReadersFromEncoders; the
// second close (and the encoders type with its close method) is gone.
package fixed

import "sync"

type encoder struct {
	data   []byte
	closed bool
}

var encoderPool = sync.Pool{New: func() any { return &encoder{} }}

func getEncoder() *encoder {
	enc := encoderPool.Get().(*encoder)
	enc.Reset()
	return enc
}

func (enc *encoder) Reset() {
	enc.data = enc.data[:0]
	enc.closed = false
}

func (enc *encoder) Encode(b byte) { enc.data = append(enc.data, b) }

// Close returns the encoder to the pool.
func (enc *encoder) Close() {
	if enc.closed {
		return
	}
	enc.closed = true
	if cap(enc.data) > 1<<16 {
		return
	}
	enc.data = enc.data[:0]
	encoderPool.Put(enc)
}

// Discard closes the encoder and hands a copy of its data to the caller.
func (enc *encoder) Discard() []byte {
	seg := append([]byte(nil), enc.data...)
	enc.Close()
	return seg
}

// newIOReadersFromEncoders closes every encoder by calling Discard.
func newIOReadersFromEncoders(e []*encoder) [][]byte {
	readers := make([][]byte, 0, len(e))
	for _, enc := range e {
		readers = append(readers, enc.Discard())
	}
	return readers
}

type commitLogSource struct {
	merged map[int64][]byte
}

func (s *commitLogSource) mergeSeries(unmerged map[int64][]*encoder) {
	for start, encs := range unmerged {
		// Closes encs by calling Discard on each.
		readers := newIOReadersFromEncoders(encs)

		enc := getEncoder()
		for _, r := range readers {
			for _, b := range r {
				enc.Encode(b)
			}
		}

		s.merged[start] = enc.Discard()
	}
}
