// Package bug reproduces the shape of coder/websocket commit a02cbef
// (https://github.com/coder/websocket/commit/a02cbef5605d23c97972fbea8dd16488cf437b7a,
// "compress.go: Fix context takeover"): the per-connection sliding window used
// as the inflate dictionary for context takeover is pooled per window size.
// slidingWindow.close put a pointer to its own buf field into the pool and
// then set that field to nil, which rewrites the value now sitting in the pool:
// the next connection gets back a nil, zero-capacity window and context
// takeover silently stops working. The fix pools the *slidingWindow itself,
// truncated, and copies it on init.
// Check: useafterput (the write to sw.buf after Put(&sw.buf)).
package bug

import "sync"

type slidingWindow struct {
	buf []byte
}

var swPoolMu sync.RWMutex
var swPool = map[int]*sync.Pool{}

func slidingWindowPool(n int) *sync.Pool {
	swPoolMu.RLock()
	p, ok := swPool[n]
	swPoolMu.RUnlock()
	if ok {
		return p
	}

	p = &sync.Pool{}

	swPoolMu.Lock()
	swPool[n] = p
	swPoolMu.Unlock()

	return p
}

func (sw *slidingWindow) init(n int) {
	if sw.buf != nil {
		return
	}

	if n == 0 {
		n = 32768
	}

	p := slidingWindowPool(n)
	buf, ok := p.Get().(*[]byte)
	if ok {
		sw.buf = (*buf)[:0]
	} else {
		sw.buf = make([]byte, 0, n)
	}
}

func (sw *slidingWindow) close() {
	if sw.buf == nil {
		return
	}

	swPoolMu.Lock()
	swPool[cap(sw.buf)].Put(&sw.buf)
	swPoolMu.Unlock()
	sw.buf = nil // want `useafterput`
}

func (sw *slidingWindow) write(p []byte) {
	if len(p) >= cap(sw.buf) {
		sw.buf = sw.buf[:cap(sw.buf)]
		p = p[len(p)-cap(sw.buf):]
		copy(sw.buf, p)
		return
	}

	left := cap(sw.buf) - len(sw.buf)
	if left < len(p) {
		spaceNeeded := len(p) - left
		copy(sw.buf, sw.buf[spaceNeeded:])
		sw.buf = sw.buf[:len(sw.buf)-spaceNeeded]
	}

	sw.buf = append(sw.buf, p...)
}

// msgReader reads (possibly compressed) messages of one connection.
type msgReader struct {
	contextTakeover bool
	dict            slidingWindow
}

func (mr *msgReader) resetFlate() {
	if mr.contextTakeover {
		mr.dict.init(32768)
	}
}

func (mr *msgReader) read(p []byte) {
	if mr.contextTakeover {
		mr.dict.write(p)
	}
}

func (mr *msgReader) close() {
	mr.dict.close()
}
