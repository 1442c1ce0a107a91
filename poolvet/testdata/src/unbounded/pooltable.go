package unbounded

import "sync"

// frameBufs is a table of size classes (x/net/http2's bufPools): each
// buffer goes back to the pool of its class, and a buffer made on a miss
// is made at its class's size, so no pool of the table collects buffers
// larger than its class (silent).
var frameBufs [4]sync.Pool // of *[]byte

func frameClass(size int) int {
	c := 0
	for s := 16 << 10; s < size && c < len(frameBufs)-1; s <<= 1 {
		c++
	}
	return c
}

func writeFrames(size int, send func([]byte)) {
	i := frameClass(size)
	var buf []byte
	if bp, ok := frameBufs[i].Get().(*[]byte); ok && len(*bp) >= size {
		defer frameBufs[i].Put(bp)
		buf = *bp
	} else {
		buf = make([]byte, size)
		defer frameBufs[i].Put(&buf)
	}
	send(buf)
}
