package useafterput

import "sync"

// A decoder that moves its buffer out of the field and clears the field
// before freeing it through a wrapper that puts a re-slice of its slice
// parameter: the field no longer holds the freed buffer, so reading the
// decoder after the call is no use after a Put (bytedance/sonic's
// StreamDecoder.Decode).
var decBufs = sync.Pool{New: func() any { return make([]byte, 0, 4096) }}

func freeDecBuf(b []byte) {
	if cap(b) <= 1<<16 {
		decBufs.Put(b[:0])
	}
}

type streamDec struct{ buf []byte }

func (d *streamDec) decode() {
	mem := d.buf
	d.buf = nil
	freeDecBuf(mem)
}

func (d *streamDec) more() bool { return len(d.buf) > 0 }

func decodeAll(d *streamDec) bool {
	d.decode()
	return d.more()
}
