package doubleput

import "sync"

// A Put in a loop over size classes, guarded by the buffer's capacity
// equal to the class's size, with no return after it (go-gost's bufpool):
// a later iteration would put it again only if two classes had one size,
// so no doubleput (reading *b in the next iteration's comparison after the
// Put is a useafterput, another check's).
type dpClass struct {
	size int
	pool sync.Pool
}

func newDPClass(size int) *dpClass {
	return &dpClass{size: size, pool: sync.Pool{New: func() any { b := make([]byte, size); return &b }}}
}

var dpClasses = []*dpClass{newDPClass(512), newDPClass(4096)}

func dpPut(b *[]byte) {
	for i := range dpClasses {
		if cap(*b) == dpClasses[i].size {
			dpClasses[i].pool.Put(b)
		}
	}
}

// Without the class guard the loop puts on every iteration: reported.
func dpPutAll(b *[]byte) {
	for i := range dpClasses {
		dpClasses[i].pool.Put(b) // want `b is put into the pool again on a later iteration`
	}
}
