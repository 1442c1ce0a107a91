package doubleput

import "sync"

// A free function that picks the pool by comparing the capacity with a
// table of class sizes puts every buffer of ordinary size: a deferred
// free of a buffer the function also frees explicitly is a double Put
// (v2fly/v2ray-core#3331).
var (
	classPools [3]sync.Pool
	classSize  = [3]int32{512, 2048, 8192}
)

func classFree(b []byte) {
	size := int32(cap(b))
	if size > classSize[2] {
		return
	}
	b = b[:cap(b)]
	for i := 2; i >= 0; i-- {
		if size >= classSize[i] {
			classPools[i].Put(&b)
			return
		}
	}
}

func classAlloc(n int32) []byte {
	for i, s := range classSize {
		if n <= s {
			return (*classPools[i].Get().(*[]byte))[:n]
		}
	}
	return make([]byte, n)
}

func reassemble(frames [][]byte) int {
	data := classAlloc(512)
	defer classFree(data)
	n := 0
	for _, f := range frames {
		if n+len(f) > len(data) {
			bigger := classAlloc(int32(n + len(f)))
			copy(bigger, data)
			classFree(data) // want `data is put into the pool here and again by the deferred Put at line 39`
			data = bigger
		}
		n += copy(data[n:], f)
	}
	return n
}

// Silent: the deferred closure frees whatever data holds at the end.
func reassembleFixed(frames [][]byte) int {
	data := classAlloc(512)
	defer func() { classFree(data) }()
	n := 0
	for _, f := range frames {
		if n+len(f) > len(data) {
			bigger := classAlloc(int32(n + len(f)))
			copy(bigger, data)
			classFree(data)
			data = bigger
		}
		n += copy(data[n:], f)
	}
	return n
}
