// Package bug reproduces the shape of julienschmidt/httprouter#292
// (https://github.com/julienschmidt/httprouter/pull/292, "Add a byte buffer
// pool for reusing bytes"): CleanPath takes its scratch []byte from a
// sync.Pool and gives it back with putBack(buf). In review the maintainer
// noted the buffer now escapes and is heap-allocated; the author answered
// that the allocation comes from sync.Pool.Put taking an interface, and the
// allocation test had to be relaxed from 0 to 1 allocation per call. The PR
// was closed; httprouter kept a stack buffer.
//
// The size guard in putBack is not in the original; it is here so that the
// only bug left is the boxing one.
//
// Check: nonpointer (a []byte value put into a sync.Pool).
package bug

import "sync"

// maxPooledPath bounds the scratch buffers kept in the pool.
const maxPooledPath = 4096

var bufPool sync.Pool

// getLen returns a scratch buffer of length n.
func getLen(n int) []byte {
	if v := bufPool.Get(); v != nil {
		if b := v.([]byte); cap(b) >= n {
			return b[:n]
		}
	}
	return make([]byte, n)
}

// putBack gives a scratch buffer back for reuse.
func putBack(b []byte) {
	if cap(b) > maxPooledPath {
		return
	}
	bufPool.Put(b) // want `nonpointer`
}

// isClean reports whether p starts with a slash and has no empty element.
func isClean(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for i := 1; i < len(p); i++ {
		if p[i] == '/' && p[i-1] == '/' {
			return false
		}
	}
	return true
}

// CleanPath returns p with a leading slash and with runs of slashes folded
// into one. It only needs a scratch buffer when p is not already clean.
func CleanPath(p string) string {
	if isClean(p) {
		return p
	}
	buf := getLen(len(p) + 1)
	buf[0] = '/'
	w := 1
	for r := 0; r < len(p); r++ {
		if p[r] == '/' && buf[w-1] == '/' {
			continue
		}
		buf[w] = p[r]
		w++
	}
	s := string(buf[:w])
	putBack(buf)
	return s
}
