// Package fixed is the obvious fix of julienschmidt/httprouter#292
// (https://github.com/julienschmidt/httprouter/pull/292): the pool holds
// *[]byte, so putting a buffer back stores a pointer and allocates nothing.
package fixed

import "sync"

// maxPooledPath bounds the scratch buffers kept in the pool.
const maxPooledPath = 4096

var bufPool sync.Pool

// getLen returns a scratch buffer of length n.
func getLen(n int) *[]byte {
	if bp, ok := bufPool.Get().(*[]byte); ok && cap(*bp) >= n {
		*bp = (*bp)[:n]
		return bp
	}
	b := make([]byte, n)
	return &b
}

// putBack gives a scratch buffer back for reuse.
func putBack(bp *[]byte) {
	if cap(*bp) > maxPooledPath {
		return
	}
	bufPool.Put(bp)
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
	bp := getLen(len(p) + 1)
	buf := *bp
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
	putBack(bp)
	return s
}
