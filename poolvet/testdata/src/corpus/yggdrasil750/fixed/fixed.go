// Package fixed is a fixed twin of yggdrasil-network/yggdrasil-go#750
// (https://github.com/yggdrasil-network/yggdrasil-go/issues/750): the pool
// holds *[]byte, so a Put stores a pointer.
package fixed

import "sync"

var bytePool = sync.Pool{New: func() any { return new([]byte) }}

func getBytes(size int) *[]byte {
	bp := bytePool.Get().(*[]byte)
	if cap(*bp) < size {
		*bp = make([]byte, size)
	}
	*bp = (*bp)[:size]
	return bp
}

func putBytes(bp *[]byte) {
	if cap(*bp) > 65535 {
		return
	}
	bytePool.Put(bp)
}

func Forward(packet []byte, send func([]byte)) {
	bp := getBytes(len(packet))
	copy(*bp, packet)
	send(*bp)
	putBytes(bp)
}
