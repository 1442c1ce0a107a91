// Package bug reproduces the shape of yggdrasil-network/yggdrasil-go#750
// (https://github.com/yggdrasil-network/yggdrasil-go/issues/750): pool.go
// committed byte slices to the pool rather than pointers to them, which
// allocates on every Put (staticcheck SA6002).
//
// Check: nonpointer.
package bug

import "sync"

var bytePool = sync.Pool{New: func() any { return []byte(nil) }}

func getBytes(size int) []byte {
	bs := bytePool.Get().([]byte)
	if cap(bs) >= size {
		return bs[:size]
	}
	return make([]byte, size)
}

func putBytes(bs []byte) {
	if cap(bs) > 65535 {
		return
	}
	bytePool.Put(bs) // want `non-pointer|nonpointer`
}

func Forward(packet []byte, send func([]byte)) {
	bs := getBytes(len(packet))
	copy(bs, packet)
	send(bs)
	putBytes(bs)
}
