package noreset

import (
	"io"
	"sync"
)

// A pooled decoder held by a wrapper: the wrapper's Close clears the
// decoder's source through a local copy of the field, or through another
// load of it, before the Put (buildbarn/bb-storage#330's fixed twin).
type srcDecoder struct {
	src  io.Reader
	read int64
}

var srcDecoderPool = sync.Pool{New: func() any { return new(srcDecoder) }}

type decoderHolder struct {
	dec *srcDecoder
}

func newDecoderHolder(r io.Reader) *decoderHolder {
	d := srcDecoderPool.Get().(*srcDecoder)
	d.src = r
	d.read = 0
	return &decoderHolder{dec: d}
}

// closeCopy clears the source through a local copy of the field: not
// reported.
func (h *decoderHolder) closeCopy() {
	d := h.dec
	if d == nil {
		return
	}
	h.dec = nil
	d.src = nil
	srcDecoderPool.Put(d)
}

// closeReload clears it through another load of the field: not reported.
func (h *decoderHolder) closeReload() {
	if h.dec == nil {
		return
	}
	h.dec.src = nil
	srcDecoderPool.Put(h.dec)
	h.dec = nil
}

// closeForget forgets to clear it.
func (h *decoderHolder) closeForget() {
	d := h.dec
	if d == nil {
		return
	}
	h.dec = nil
	d.read = 0
	srcDecoderPool.Put(d) // want `d goes back to the pool still holding, in field src, what a user was passed`
}
