package useafterput

import "sync"

var frameBufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 1024)
	return &b
}}

type frameReader struct {
	handle *[]byte
	next   []byte
}

func frameLen(b []byte) int {
	if len(b) < 4 {
		return -1
	}
	return int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3])
}

// The buffer is replaced by a larger one inside the loop and the old one
// put; the next iteration reads the new one (grpc's ALTS record reader).
// Not reported.
func (r *frameReader) readFrame(fill func([]byte) int) []byte {
	protected := *r.handle
	if len(r.next) > 0 {
		protected = protected[:copy(protected[:cap(protected)], r.next)]
	}
	for frameLen(protected) < 0 || len(protected) < frameLen(protected)+4 {
		if n := frameLen(protected); n > 0 && n+4 > cap(protected) && n+4 <= 1<<20 {
			old, oldHandle := protected, r.handle
			nb := make([]byte, 0, n+4)
			r.handle = &nb
			protected = append(nb, old...)
			*oldHandle = (*oldHandle)[:0]
			frameBufPool.Put(oldHandle)
		}
		k := fill(protected[len(protected):cap(protected)])
		if k == 0 {
			return nil
		}
		protected = protected[:len(protected)+k]
	}
	return protected
}
