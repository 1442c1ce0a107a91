// Package fixed is a fixed twin of twitchtv/twirp#165
// (https://github.com/twitchtv/twirp/pull/165): the code uses the pool's
// own type, *[]byte, for Get and Put.
package fixed

import "sync"

var BufferPool = &sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuffer() *[]byte {
	bp := BufferPool.Get().(*[]byte)
	*bp = (*bp)[:0]
	return bp
}

func Marshal(fields []string) []byte {
	bp := getBuffer()
	for _, f := range fields {
		*bp = append(*bp, f...)
	}
	out := append([]byte(nil), *bp...)
	if cap(*bp) <= 64<<10 {
		BufferPool.Put(bp)
	}
	return out
}
