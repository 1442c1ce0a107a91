package crash

import (
	"strings"
	"sync"
)

// Shapes for the closure-call resolution (once.Do, captured func values)
// and the strings.Builder rules.

var cbPool = sync.Pool{New: func() any { return new(strings.Builder) }}

func onceMethodValue(o *sync.Once, f func()) {
	o.Do(f) // not a literal
	o.Do(func() { (&sync.Once{}).Do(f) })
}

func capturedReassigned() {
	b := cbPool.Get().(*strings.Builder)
	fin := func() { cbPool.Put(b) }
	fin = func() {}
	go func() {
		defer fin()
	}()
	b.Reset()
	cbPool.Put(b)
}

func capturedNil() {
	var fin func()
	go func() {
		if fin != nil {
			fin()
		}
	}()
}

func nestedCaptured() {
	b := cbPool.Get().(*strings.Builder)
	var once sync.Once
	put := func() { once.Do(func() { b.Reset(); cbPool.Put(b) }) }
	wrap := func() { put() }
	go func() {
		defer wrap()
	}()
	go wrap()
	func() { put() }()
}

func builderViaInterface(w interface{ Reset() }) {
	b := cbPool.Get().(*strings.Builder)
	w.Reset()
	var x any = b
	cbPool.Put(x)
}
