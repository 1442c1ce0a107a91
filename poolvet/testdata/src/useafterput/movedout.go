package useafterput

import "sync"

// A buffer value whose Release moves its slice out of the field into a
// local, clears the field and puts the local's address: the memory behind
// the field goes back, so a view taken before the Release is stale after
// it (v2fly/v2ray-core 899b8fe).
var stackArrays = sync.Pool{New: func() any { b := make([]byte, 2048); return &b }}

type stackBuf struct {
	v          []byte
	start, end int
}

func newStackBuf() stackBuf { return stackBuf{v: *stackArrays.Get().(*[]byte)} }

func (b *stackBuf) Release() {
	if b == nil || b.v == nil {
		return
	}
	p := b.v
	b.v = nil
	b.start, b.end = 0, 0
	stackArrays.Put(&p)
}

func (b *stackBuf) Bytes() []byte { return b.v[b.start:b.end] } // want Bytes:`pool:alias`

func (b *stackBuf) Write(p []byte) {
	n := copy(b.v[b.end:], p)
	b.end += n
}

func attachHeader(hdr, data []byte) []byte {
	pb := newStackBuf()
	pb.Write(hdr)
	data = append(pb.Bytes(), data...)
	pb.Release()
	return data // want `the value returned here shares memory with what Bytes \(line 38\) returned`
}

// The fix keeps the buffer: the result owns it.
func attachHeaderFixed(hdr, data []byte) []byte {
	pb := newStackBuf()
	pb.Write(hdr)
	return append(pb.Bytes(), data...)
}

// A copy taken before the Release: no report.
func attachHeaderCopy(hdr, data []byte) []byte {
	pb := newStackBuf()
	pb.Write(hdr)
	out := append(append([]byte(nil), pb.Bytes()...), data...)
	pb.Release()
	return out
}
