// Source: https://github.com/m3db/m3/pull/200
// (commit c3f8d1fc5fdb714c6dac097480c611a2df4e0267, "Avoid keeping reference
// to returned byte slice on close").
//
// Bug: the m3tsz encoder writes into a []byte taken from a bucketed bytes
// pool and held by its ostream (enc.os). Close() handed that buffer back to
// the bytes pool and the encoder back to the encoder pool, but enc.os kept
// referencing the buffer. The next user of the pooled encoder called
// Reset -> ResetSetData, which took enc.segment(byRef) of the stale ostream
// and so handed out a Segment aliasing a buffer the bytes pool had already
// given to someone else (use after free of pooled bytes).
//
// Fix: Close() resets the ostream to nil before putting the buffer back
// ("Buffer is being returned to pool, ensure not to keep reference"); reset
// puts any still-owned raw bytes back itself, and taking the segment by
// reference releases the ostream's reference (DiscardReset replaces
// ResetSetData).
//
// Check: useafterput (the bytes are kept in the encoder's ostream field while
// bytesPool.Put(buffer) in Close returns them to the pool; the encoder, still
// holding them, goes back to the encoder pool and later hands them out)
package bug

import "time"

// BytesPool is m3x's bucketed pool of byte slices.
type BytesPool interface {
	Get(capacity int) []byte
	Put(buffer []byte)
}

type bucket struct {
	capacity int
	values   chan []byte
}

type bytesPool struct {
	buckets []bucket
}

// NewBytesPool creates a bucketed bytes pool.
func NewBytesPool(sizes []int, count int) BytesPool {
	p := &bytesPool{}
	for _, s := range sizes {
		p.buckets = append(p.buckets, bucket{capacity: s, values: make(chan []byte, count)})
	}
	return p
}

func (p *bytesPool) Get(capacity int) []byte {
	for i := range p.buckets {
		if capacity <= p.buckets[i].capacity {
			select {
			case b := <-p.buckets[i].values:
				return b[:0]
			default:
				return make([]byte, 0, p.buckets[i].capacity)
			}
		}
	}
	return make([]byte, 0, capacity)
}

func (p *bytesPool) Put(buffer []byte) {
	c := cap(buffer)
	for i := range p.buckets {
		if c == p.buckets[i].capacity {
			select {
			case p.buckets[i].values <- buffer:
			default:
			}
			return
		}
	}
}

// EncoderPool pools encoders.
type EncoderPool interface {
	Get() Encoder
	Put(e Encoder)
}

// Encoder is encoding.Encoder, trimmed.
type Encoder interface {
	Reset(t time.Time, capacity int)
	ResetSetData(t time.Time, data Segment) Segment
	Close()
	Discard() Segment
}

// Segment is ts.Segment.
type Segment struct {
	Head     []byte
	Tail     []byte
	HeadPool BytesPool
}

// Options is encoding.Options, trimmed.
type Options struct {
	bytesPool   BytesPool
	encoderPool EncoderPool
}

func (o Options) BytesPool() BytesPool     { return o.bytesPool }
func (o Options) EncoderPool() EncoderPool { return o.encoderPool }

type ostream struct {
	rawBuffer []byte
	pos       int
}

func (os *ostream) Len() int    { return len(os.rawBuffer) }
func (os *ostream) Empty() bool { return os.Len() == 0 && os.pos == 0 }

func (os *ostream) WriteBits(v byte) {
	os.rawBuffer = append(os.rawBuffer, v)
	os.pos = 8
}

func (os *ostream) Reset(buffer []byte) {
	os.rawBuffer = buffer
	os.pos = 0
	if len(buffer) > 0 {
		os.pos = 8
	}
}

func (os *ostream) Rawbytes() ([]byte, int) {
	return os.rawBuffer, os.pos
}

type resultType int

const (
	byCopyResultType resultType = iota
	byRefResultType
)

type encoder struct {
	os     *ostream
	opts   Options
	t      time.Time
	closed bool
}

func (enc *encoder) newBuffer(capacity int) []byte {
	if bytesPool := enc.opts.BytesPool(); bytesPool != nil {
		return bytesPool.Get(capacity)
	}
	return make([]byte, 0, capacity)
}

func (enc *encoder) Reset(start time.Time, capacity int) {
	enc.ResetSetData(start, Segment{Head: enc.newBuffer(capacity)})
}

func (enc *encoder) ResetSetData(start time.Time, data Segment) Segment {
	// Return what this encoder owned by reference
	segment := enc.segment(byRefResultType)

	bytes := data.Head
	if data.Tail != nil {
		bytes = append(bytes, data.Tail...)
	}
	enc.os.Reset(bytes)
	enc.t = start
	enc.closed = false
	return segment
}

func (enc *encoder) Close() {
	if enc.closed {
		return
	}

	enc.closed = true

	buffer, _ := enc.os.Rawbytes()

	if bytesPool := enc.opts.BytesPool(); bytesPool != nil && buffer != nil {
		bytesPool.Put(buffer) // want `useafterput`
	}

	if pool := enc.opts.EncoderPool(); pool != nil {
		pool.Put(enc)
	}
}

func (enc *encoder) Discard() Segment {
	segment := enc.segment(byRefResultType)

	// We are taking the encoder's bytes by reference so ensure not put back
	// in the pool when we close the encoder directly next
	enc.os.Reset(nil)

	enc.Close()

	return segment
}

func (enc *encoder) segment(resType resultType) Segment {
	if enc.os.Empty() {
		return Segment{}
	}
	b, _ := enc.os.Rawbytes()
	blen := len(b)

	var head []byte
	if resType == byRefResultType {
		head = b[:blen-1]
	} else {
		head = append(enc.newBuffer(blen-1), b[:blen-1]...)
	}
	tail := []byte{b[blen-1]}

	return Segment{Head: head, Tail: tail, HeadPool: enc.opts.BytesPool()}
}

// DrainAndReset is the series buffer's use of a pooled encoder.
func DrainAndReset(enc Encoder, current time.Time) Segment {
	return enc.ResetSetData(current, Segment{})
}
