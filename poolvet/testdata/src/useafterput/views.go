package useafterput

import (
	"strings"
	"sync"
	"unsafe"
)

// A method returns a view of a pooled buffer its receiver holds; the view
// outlives the Close that puts the buffer back (grafana/pyroscope#5116).
var indexPool = sync.Pool{New: func() any { return new([]byte) }}

type index struct {
	buf *[]byte
}

func openIndex(raw []byte) *index {
	b := indexPool.Get().(*[]byte)
	*b = append((*b)[:0], raw...)
	return &index{buf: b}
}

func (x *index) close() {
	if x.buf == nil {
		return
	}
	b := x.buf
	x.buf = nil
	if cap(*b) > 1<<20 {
		return
	}
	*b = (*b)[:0]
	indexPool.Put(b)
}

func (x *index) raw() []byte { return *x.buf }

// names splits the buffer into zero-copy strings.
func (x *index) names() []string {
	var out []string
	data := *x.buf
	for len(data) > 0 {
		n := int(data[0])
		if n+1 > len(data) {
			break
		}
		out = append(out, unsafe.String(unsafe.SliceData(data[1:]), n))
		data = data[1+n:]
	}
	return out
}

func rawAfterDeferredClose(raw []byte) []byte {
	x := openIndex(raw)
	defer x.close()
	return x.raw() // want `shares memory with what raw`
}

func namesAfterDeferredClose(raw []byte) []string {
	x := openIndex(raw)
	defer x.close()
	names := x.names()
	return names // want `shares memory with what names`
}

func namesAfterClose(raw []byte) []string {
	x := openIndex(raw)
	names := x.names()
	x.close()
	return names // want `shares memory with what names`
}

func namesPassedAfterClose(raw []byte, sink func([]string)) {
	x := openIndex(raw)
	names := x.names()
	x.close()
	sink(names) // want `shares memory with what names`
}

// Copies made before the Put: not reported.
func namesCloned(raw []byte) []string {
	x := openIndex(raw)
	defer x.close()
	names := x.names()
	for i, n := range names {
		names[i] = strings.Clone(n)
	}
	return names
}

func rawCopied(raw []byte) []byte {
	x := openIndex(raw)
	defer x.close()
	return append([]byte(nil), x.raw()...)
}

// Used before the Close: not reported.
func namesCounted(raw []byte) int {
	x := openIndex(raw)
	n := len(x.names())
	x.close()
	return n
}

// A call that puts the buffer only on a rare path (a key conversion that
// drops the cache) is no Release: a view used after it is not reported.
func (x *index) convert(keys map[string]bool) {
	if keys["converted"] {
		return
	}
	keys["converted"] = true
	x.close()
}

func flushIndex(x *index, keys map[string]bool, write func([]byte)) {
	raw := x.raw()
	x.convert(keys)
	write(raw)
}
