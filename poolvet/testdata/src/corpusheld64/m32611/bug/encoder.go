// Source: https://github.com/m3db/m3/pull/2611
// (commit bb8002e136b2928f526e924d5c71883cad5cbebe, "[dbnode] Finalize seg and
// only close encoder once")
//
// Bug: dbBuffer.Snapshot merges several bucket streams by taking an encoder
// from the EncoderPool and deferring encoder.Close(). At the end of the merge
// it calls encoder.Discard(), which takes ownership of the encoded segment and
// closes the encoder - i.e. puts it back into the encoder pool. The deferred
// encoder.Close() then runs again when Snapshot returns. The encoder's closed
// flag only guards this while nobody else holds the encoder: once another
// goroutine has taken it from the pool and Reset it (closed = false), the
// deferred Close closes and re-pools an encoder somebody else is using. The
// discarded segment was also never finalized.
//
// Fix: track encoderClosed, set it after Discard and skip the deferred Close
// in that case; defer segment.Finalize().
//
// Check: doubleput (at the deferred encoder.Close() in Snapshot, the second
// return of the encoder after encoder.Discard() already put it back)
package bug

import "time"

// Segment is a trimmed ts.Segment.
type Segment struct {
	Head []byte
	Tail []byte
	pool *BytesPool
}

// Len returns the segment length.
func (s Segment) Len() int { return len(s.Head) + len(s.Tail) }

// Finalize returns the segment bytes to the pool.
func (s Segment) Finalize() {
	if s.pool != nil && s.Head != nil {
		s.pool.Put(s.Head)
	}
}

// BytesPool is a trimmed checked bytes pool.
type BytesPool struct {
	ch chan []byte
}

// Get returns a byte slice with the given capacity.
func (p *BytesPool) Get(capacity int) []byte {
	select {
	case b := <-p.ch:
		if cap(b) >= capacity {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, capacity)
}

// Put returns a byte slice to the pool.
func (p *BytesPool) Put(b []byte) {
	select {
	case p.ch <- b:
	default:
	}
}

// Encoder encodes datapoints.
type Encoder interface {
	Encode(t time.Time, v float64) error
	Reset(start time.Time, capacity int)
	Discard() Segment
	Close()
}

// EncoderPool pools encoders.
type EncoderPool interface {
	Get() Encoder
	Put(e Encoder)
}

type encoderPool struct {
	ch    chan Encoder
	alloc func() Encoder
}

func (p *encoderPool) Get() Encoder {
	select {
	case e := <-p.ch:
		return e
	default:
		return p.alloc()
	}
}

func (p *encoderPool) Put(e Encoder) {
	select {
	case p.ch <- e:
	default:
	}
}

type encoderOptions struct {
	encoderPool EncoderPool
	bytesPool   *BytesPool
}

type encoder struct {
	opts   encoderOptions
	start  time.Time
	buf    []byte
	closed bool
}

func (enc *encoder) Encode(t time.Time, v float64) error {
	enc.buf = append(enc.buf, byte(t.Sub(enc.start)), byte(v))
	return nil
}

func (enc *encoder) Reset(start time.Time, capacity int) {
	enc.start = start
	enc.buf = enc.opts.bytesPool.Get(capacity)
	enc.closed = false
}

func (enc *encoder) Close() {
	if enc.closed {
		return
	}

	enc.closed = true

	// Ensure to free ref to ostream bytes
	enc.buf = nil

	if pool := enc.opts.encoderPool; pool != nil {
		pool.Put(enc)
	}
}

// Discard closes the encoder and transfers ownership of the data stream to
// the caller.
func (enc *encoder) Discard() Segment {
	segment := enc.segmentTakeOwnership()

	// Close the encoder no longer needed
	enc.Close()

	return segment
}

func (enc *encoder) segmentTakeOwnership() Segment {
	if len(enc.buf) == 0 {
		return Segment{}
	}
	head := enc.buf
	enc.buf = nil
	return Segment{Head: head, pool: enc.opts.bytesPool}
}
