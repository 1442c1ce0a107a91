// Package bug reproduces the shape of Arceliar/ironwood#30
// (https://github.com/Arceliar/ironwood/pull/30, "Use pointerised slices in
// sync.Pools"; see also #25): the byte pools of the network and encrypted
// packages stored plain []byte values. Each Put converts the slice header to
// an interface, which allocates, so the pool that was meant to save
// allocations made one per packet (staticcheck SA6002).
//
// Check: nonpointer (a []byte slice value, re-sliced to zero length, is put
// into a sync.Pool from a free helper; the buffers have a fixed capacity, and
// oversized ones are dropped, so only the boxing is at fault).
package bug

import "sync"

const byteSize = 65535 * 2

var bytePool = sync.Pool{
	New: func() interface{} { return make([]byte, 0, byteSize) },
}

// allocBytes hands out a buffer of the requested length, taken from the
// pool when it is big enough.
func allocBytes(size int) []byte {
	if size > byteSize {
		return make([]byte, size)
	}
	bs := bytePool.Get().([]byte)
	return bs[:size]
}

// freeBytes gives a buffer back to the pool.
func freeBytes(bs []byte) {
	if cap(bs) != byteSize {
		return
	}
	bytePool.Put(bs[:0]) // want `nonpointer`
}

type traffic struct {
	payload []byte
	source  uint64
}

// Forward copies a packet into a pooled buffer, passes it on and frees it.
func Forward(pkt []byte, send func(*traffic)) {
	tr := &traffic{payload: allocBytes(len(pkt))}
	copy(tr.payload, pkt)
	send(tr)
	freeBytes(tr.payload)
	tr.payload = nil
}
