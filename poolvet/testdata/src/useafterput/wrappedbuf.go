package useafterput

import "sync"

// protoBuf wraps a slice the way proto.Buffer does: NewProtoBuf keeps
// its argument, and the package calls it only with fresh memory, so the
// pooled object owns its buffer.
type protoBuf struct {
	buf []byte
}

func newProtoBuf(b []byte) *protoBuf { return &protoBuf{buf: b} }

func (b *protoBuf) Bytes() []byte { return b.buf } // want Bytes:`pool:alias`

func (b *protoBuf) encode(x byte) { b.buf = append(b.buf, x) }

var protoBufs = sync.Pool{New: func() any { return newProtoBuf(make([]byte, 0, 256)) }}

// putProtoBuf drops large buffers, checking their size through the
// getter: it puts every buffer of normal size.
func putProtoBuf(b *protoBuf) {
	if cap(b.Bytes()) > 64<<10 {
		return
	}
	b.buf = b.buf[:0]
	protoBufs.Put(b)
}

// encodeAll returns a view of the buffer its deferred wrapper hands back
// (istio/istio#8361).
func encodeAll(xs []byte) []byte {
	b := protoBufs.Get().(*protoBuf)
	defer putProtoBuf(b)
	for _, x := range xs {
		b.encode(x)
	}
	return b.Bytes() // want `returned value shares memory with b, which the deferred Put at line 34 gives back to the pool`
}

// encodeAllCopy returns a copy: fine.
func encodeAllCopy(xs []byte) []byte {
	b := protoBufs.Get().(*protoBuf)
	defer putProtoBuf(b)
	for _, x := range xs {
		b.encode(x)
	}
	return append([]byte(nil), b.Bytes()...)
}

// encodeThenRead reads the buffer after the wrapper put it back.
func encodeThenRead(xs []byte) int {
	b := protoBufs.Get().(*protoBuf)
	for _, x := range xs {
		b.encode(x)
	}
	putProtoBuf(b)
	return len(b.Bytes()) // want `b is used after it was put back into the pool at line 57`
}

// heldBuf wraps a caller's slice (newHeldBuf(data) with data from the
// caller): its buffer is the caller's memory, not pool memory.
type heldBuf struct {
	buf []byte
}

func newHeldBuf(b []byte) *heldBuf { return &heldBuf{buf: b} }

var heldBufs = sync.Pool{New: func() any { return new(heldBuf) }}

func wrapCaller(data []byte) []byte {
	h := newHeldBuf(data)
	defer heldBufs.Put(h)
	return h.buf
}
