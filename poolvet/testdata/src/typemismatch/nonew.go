package typemismatch

import (
	"bytes"
	"sync"
)

var noNewPool sync.Pool // no New anywhere in the package

func noNewAssert() *bytes.Buffer {
	return noNewPool.Get().(*bytes.Buffer) // want `noNewPool has no New, so Get returns nil when the pool is empty and this assertion to \*bytes.Buffer panics`
}

// The comma-ok form with a fallback is how a pool without New is used.
func noNewCommaOk() *bytes.Buffer {
	b, ok := noNewPool.Get().(*bytes.Buffer)
	if !ok {
		b = new(bytes.Buffer)
	}
	return b
}

// So is a nil check before the assertion.
func noNewNilCheck() *bytes.Buffer {
	if v := noNewPool.Get(); v != nil {
		return v.(*bytes.Buffer)
	}
	return new(bytes.Buffer)
}

// classes is an array of pools that nothing gives a New (jbenet/go-msgio#14);
// get returns what the pool holds, nil included.
type classes struct {
	pools [8]sync.Pool
}

func (c *classes) get(i int) any { return c.pools[i].Get() }

func useClasses(c *classes) []byte {
	return *c.get(0).(*[]byte) // want `field pools has no New, so Get returns nil when the pool is empty and this assertion to \*\[\]byte panics`
}

// withNew sets New in its constructor: fine.
type withNew struct {
	pools [8]sync.Pool
}

func newWithNew() *withNew {
	w := &withNew{}
	for i := range w.pools {
		w.pools[i].New = func() any { return new([]byte) }
	}
	return w
}

func (w *withNew) get(i int) any { return w.pools[i].Get() }

func useWithNew(w *withNew) []byte {
	return *w.get(0).(*[]byte)
}

// A pool without New whose Get asserts []int after a nil check, and whose
// put helper puts a *[]int (anacrolix/torrent#205): the next Get panics.
type inclinations struct {
	pool sync.Pool
}

func (t *inclinations) get(n int) []int {
	v := t.pool.Get()
	if v == nil {
		return make([]int, n)
	}
	return v.([]int) // want `this Get's result is asserted to`
}

func (t *inclinations) put(pi []int) {
	t.pool.Put(&pi) // want `&pi of type \*\[\]int is put into a pool whose Gets assert \[\]int`
}

// Silent: the Get asserts the pointer it is given.
type inclinations2 struct {
	pool sync.Pool
}

func (t *inclinations2) get(n int) []int {
	v := t.pool.Get()
	if v == nil {
		return make([]int, n)
	}
	return *v.(*[]int)
}

func (t *inclinations2) put(pi []int) {
	t.pool.Put(&pi)
}
