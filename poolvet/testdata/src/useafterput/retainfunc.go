package useafterput

import "sync"

type wireResp struct{ body []byte }

var wireRespPool = sync.Pool{New: func() any { return new(wireResp) }}

func releaseWireResp(r *wireResp) {
	r.body = r.body[:0]
	wireRespPool.Put(r)
}

type reply interface{ ID() uint64 }

type wireReply struct {
	id    uint64
	value []byte
	resp  *wireResp
}

func (w *wireReply) ID() uint64 { return w.id }

type errReply struct{ err error }

func (e *errReply) ID() uint64 { return 0 }

// fillReply keeps the response and a view of its body in the reply, when
// the reply is a *wireReply (weibocom/motan-go#403).
func fillReply(r reply, resp *wireResp) {
	if w, ok := r.(*wireReply); ok {
		w.value = resp.body
		w.resp = resp
	}
}

func call(id uint64, do func(*wireResp) error) reply {
	resp := wireRespPool.Get().(*wireResp)
	defer releaseWireResp(resp)
	if err := do(resp); err != nil {
		return &errReply{err}
	}
	var res reply = &wireReply{id: id}
	fillReply(res, resp)
	return res // want `returned value shares memory with resp`
}

// Silent: the reply owns the response, released only on the error path;
// the error reply then overwrites the result slot (the function has a
// defer), which uses nothing.
func call2(id uint64, req *wireResp, do func(*wireResp, *wireResp) error) reply {
	resp := wireRespPool.Get().(*wireResp)
	defer releaseWireResp(req)
	if err := do(req, resp); err != nil {
		releaseWireResp(resp)
		return &errReply{err}
	}
	var res reply = &wireReply{id: id}
	fillReply(res, resp)
	return res
}
