package useafterput

import "sync"

// Silent: an Append helper of the package that moves the bytes to a larger
// pooled buffer and puts the old one returns new memory, not an alias of
// its argument (m3db/m3#194's fixed twin): storing its result is not a use.
var growPool = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

func getGrow(n int) []byte {
	b := growPool.Get().([]byte)
	if cap(b) < n {
		return make([]byte, 0, n)
	}
	return b[:0]
}

func AppendOne(b []byte, v byte) []byte { // want AppendOne:`pool:put\(0\)`
	if len(b)+1 > cap(b) {
		nb := getGrow(2*cap(b) + 1)
		nb = append(nb, b...)
		growPool.Put(b)
		b = nb
	}
	return append(b, v)
}

type outStream struct{ raw []byte }

func (o *outStream) writeByte(v byte) { o.raw = AppendOne(o.raw, v) }
