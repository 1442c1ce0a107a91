// Package bug reproduces the shape found in review of twitchtv/twirp#165
// (https://github.com/twitchtv/twirp/pull/165): the generated code took
// buffers from a user-supplied pool with b.([]byte), which panics when the
// pool holds anything else; a *sync.Pool set up the recommended way (New
// returning *[]byte, as staticcheck SA6002 asks) makes every Get panic, and
// the code put []byte values back.
//
// Checks: typemismatch (Get asserted to []byte, New returns *[]byte) and
// nonpointer (the Put of the []byte).
package bug

import "sync"

var BufferPool = &sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuffer() []byte {
	if b := BufferPool.Get(); b != nil {
		return b.([]byte)[:0] // want `asserted to|whose New returns|typemismatch`
	}
	return make([]byte, 0, 4096)
}

func Marshal(fields []string) []byte {
	buf := getBuffer()
	for _, f := range fields {
		buf = append(buf, f...)
	}
	out := append([]byte(nil), buf...)
	if cap(buf) <= 64<<10 {
		BufferPool.Put(buf) // want `non-pointer|nonpointer|whose New returns|typemismatch`
	}
	return out
}
