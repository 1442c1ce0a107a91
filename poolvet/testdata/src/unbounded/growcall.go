package unbounded

import (
	"encoding/binary"
	"sync"
)

// A getter and a put helper on a struct-field pool; one caller stores into
// the buffer what an encoder returns after appending to it in a loop
// (prometheus/prometheus#19397): the pool holds buffers of any size.
type recHead struct {
	recPool sync.Pool
}

func (h *recHead) getRecBuf() *[]byte {
	if b, ok := h.recPool.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 1024)
	return &b
}

func (h *recHead) putRecBuf(b *[]byte) {
	*b = (*b)[:0]
	h.recPool.Put(b) // want `b \(\*\[\]byte\) is put into the pool without a capacity check`
}

type recEncoder struct{}

func (e *recEncoder) samples(vs []uint64, b []byte) []byte {
	for _, v := range vs {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return b
}

func (h *recHead) commit(vs []uint64, log func([]byte)) {
	var enc recEncoder
	bp := h.getRecBuf()
	defer h.putRecBuf(bp)
	*bp = enc.samples(vs, *bp)
	log(*bp)
}

// Silent: the encoder writes a fixed-size header only.
type hdrHead struct {
	hdrPool sync.Pool
}

func (h *hdrHead) getHdrBuf() *[]byte {
	if b, ok := h.hdrPool.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 16)
	return &b
}

func (h *hdrHead) putHdrBuf(b *[]byte) {
	*b = (*b)[:0]
	h.hdrPool.Put(b)
}

func (e *recEncoder) header(n uint64, b []byte) []byte {
	return binary.BigEndian.AppendUint64(b, n)
}

func (h *hdrHead) commit(n uint64, log func([]byte)) {
	var enc recEncoder
	bp := h.getHdrBuf()
	defer h.putHdrBuf(bp)
	*bp = enc.header(n, *bp)
	log(*bp)
}
