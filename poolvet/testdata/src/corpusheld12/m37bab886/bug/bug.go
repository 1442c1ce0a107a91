// Package bug reproduces the shape of m3db/m3 commit 7bab886
// (https://github.com/m3db/m3/commit/7bab8868780f65f2741cf1375486919d129e8b91,
// "remove encoders type and dont double close"): the commit log
// bootstrapper's mergeSeries built segment readers from a block's encoders
// with newIOReadersFromEncoders, which calls Discard on each encoder, and
// Discard closes the encoder (back to the pool). After merging it then
// called encoders.close(), closing every encoder a second time. The closed
// flag does not save it: the merge Gets a fresh encoder between the two
// closes, possibly one just discarded, and its Reset clears the flag, so the
// second close puts back the encoder that is being written to.
//
// Check: doubleput (a helper puts every element of a slice through
// Discard, then a method puts every element again; reported at the
// encoders.close() call).
package bug

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

type encoders []*encoder

func (e encoders) close() {
	for i := range e {
		e[i].Close()
	}
}

// newIOReadersFromEncoders closes every encoder by calling Discard.
func newIOReadersFromEncoders(e encoders) [][]byte {
	readers := make([][]byte, 0, len(e))
	for _, enc := range e {
		readers = append(readers, enc.Discard())
	}
	return readers
}

type commitLogSource struct {
	merged map[int64][]byte
}

func (s *commitLogSource) mergeSeries(unmerged map[int64]encoders) {
	for start, encs := range unmerged {
		readers := newIOReadersFromEncoders(encs)

		enc := getEncoder()
		for _, r := range readers {
			for _, b := range r {
				enc.Encode(b)
			}
		}

		encs.close() // want `doubleput`

		s.merged[start] = enc.Discard()
	}
}
