package useafterput

import "sync"

// A pooled response keeps a pointer to a pooled header; both go back to
// their pools, the header first. The response in the pool does not touch
// the header, and its next user sets the field again: silent (labstack/echo
// 3cd1d5b's server).
type holderHdr struct{ kv map[string]string }

type holderRes struct {
	hdr  *holderHdr
	code int
}

func (r *holderRes) reset(h *holderHdr) {
	r.hdr = h
	r.code = 200
}

var (
	holderHdrs = sync.Pool{New: func() any { return new(holderHdr) }}
	holderRess = sync.Pool{New: func() any { return new(holderRes) }}
)

func holderServe(handle func(*holderRes)) {
	hdr := holderHdrs.Get().(*holderHdr)
	res := holderRess.Get().(*holderRes)
	res.reset(hdr)
	handle(res)
	holderHdrs.Put(hdr)
	holderRess.Put(res)
}

// Using the header itself after its Put is one.
func holderServeRead(handle func(*holderRes)) int {
	hdr := holderHdrs.Get().(*holderHdr)
	res := holderRess.Get().(*holderRes)
	res.reset(hdr)
	handle(res)
	holderHdrs.Put(hdr)
	n := len(hdr.kv) // want `hdr is used after it was put back into the pool`
	holderRess.Put(res)
	return n
}
