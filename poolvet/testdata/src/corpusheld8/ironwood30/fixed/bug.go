// Package fixed is the fixed twin of corpusheld8/ironwood30: the pool holds
// pointers to fixed-size arrays (as ironwood does after #25/#30), so Put
// boxes nothing.
package fixed

import "sync"

const byteSize = 65535 * 2

type byteArray [byteSize]byte

var bytePool = sync.Pool{
	New: func() interface{} { return new(byteArray) },
}

func allocBytes(size int) []byte {
	if size > byteSize {
		return make([]byte, size)
	}
	ba := bytePool.Get().(*byteArray)
	return ba[:size]
}

func freeBytes(bs []byte) {
	if cap(bs) != byteSize {
		return
	}
	ba := (*byteArray)(bs[:byteSize])
	bytePool.Put(ba)
}

type traffic struct {
	payload []byte
	source  uint64
}

func Forward(pkt []byte, send func(*traffic)) {
	tr := &traffic{payload: allocBytes(len(pkt))}
	copy(tr.payload, pkt)
	send(tr)
	freeBytes(tr.payload)
	tr.payload = nil
}
