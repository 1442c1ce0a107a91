// Package crash holds shapes that once crashed poolvet, or that reach
// unusual corners of SSA (method values and expressions, pools in generic
// fields, arrays, maps, interfaces, closures, recover, goto, select). The
// test only asks that poolvet returns without a panic; the few reports it
// makes here are true and are listed with want comments.
package crash

import (
	"bytes"
	"sync"

	"github.com/poolkit/pool"
)

var syncPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var typed = pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}

var cur *bytes.Buffer

// storesFrom once dereferenced nil Referrers of a package-level variable
// (issue 12: checkNoReset with a Put of a global).
func putGlobal() {
	b := syncPool.Get().(*bytes.Buffer)
	_ = b
	syncPool.Put(cur)
}

func putGlobalTyped() {
	b := typed.Get()
	_ = b
	typed.Put(cur)
}

// Get and Put through method values: the call has no receiver argument
// (issue 12: index out of range in checkGetType and poolResets).
func methodValueSync() {
	get := syncPool.Get
	put := syncPool.Put
	b := get().(*bytes.Buffer)
	b.Reset()
	put(b)
}

func methodValueTyped() {
	get := typed.Get
	put := typed.Put
	b := get()
	b.Reset()
	put(b)
}

func boundInline() *bytes.Buffer {
	return (&syncPool).Get().(*bytes.Buffer)
}

// Method expressions: the receiver is an ordinary argument.
func methodExpr() {
	b := (*sync.Pool).Get(&syncPool).(*bytes.Buffer)
	b.Reset()
	(*sync.Pool).Put(&syncPool, b)
	t := (*pool.Pool[*bytes.Buffer]).Get(&typed)
	t.Reset()
	(*pool.Pool[*bytes.Buffer]).Put(&typed, t)
}

// Method values handed around as func values.
func apply(get func() any, put func(any)) {
	x := get()
	put(x)
}

func passMethodValues() {
	apply(syncPool.Get, syncPool.Put)
	var p sync.Pool
	apply(p.Get, p.Put)
}

// Pools in generic struct fields.
type holder[T any] struct {
	p  pool.Pool[T]
	sp sync.Pool
}

func (h *holder[T]) get() T { return h.p.Get() }

func (h *holder[T]) put(v T) { h.p.Put(v) }

func (h *holder[T]) roundTrip() {
	v := h.get()
	h.put(v)
	x := h.sp.Get()
	h.sp.Put(x)
	g := h.p.Get
	g()
}

func useHolder() {
	var h holder[*bytes.Buffer]
	h.roundTrip()
	b := h.get()
	b.Reset()
	h.put(b)
}

// Pools in arrays, slices and maps.
var pools [4]sync.Pool

var poolSlice = make([]pool.Pool[[]byte], 4)

var poolMap = map[int]*sync.Pool{}

func arrays(i int) {
	b := pools[i&3].Get()
	pools[i&3].Put(b)
	s := poolSlice[i&3].Get()
	poolSlice[i&3].Put(s)
	if p, ok := poolMap[i]; ok {
		p.Put(p.Get())
	}
	get := pools[0].Get
	_ = get()
}

// Pools behind interfaces.
type getPutter interface {
	Get() any
	Put(any)
}

func iface(gp getPutter) {
	x := gp.Get()
	gp.Put(x)
	var sp getPutter = &syncPool
	y := sp.Get()
	sp.Put(y)
}

// Closures and deferred function literals with recover.
func closures() (err error) {
	b := syncPool.Get().(*bytes.Buffer)
	defer func() {
		if r := recover(); r != nil {
			err = nil
		}
		b.Reset()
		syncPool.Put(b)
	}()
	f := func() { b.WriteString("x") }
	f()
	put := func(x any) { syncPool.Put(x) }
	put(nil)
	return nil
}

func deferMethodValue() {
	b := syncPool.Get().(*bytes.Buffer)
	put := syncPool.Put
	b.Reset()
	defer put(b)
}

func goMethodValue() {
	b := typed.Get()
	b.Reset()
	go typed.Put(b)
}

// goto and select loops.
func gotoLoop(n int) {
	i := 0
again:
	b := syncPool.Get().(*bytes.Buffer)
	b.Reset()
	syncPool.Put(b)
	i++
	if i < n {
		goto again
	}
}

func selectLoop(ch chan *bytes.Buffer, done chan struct{}) {
	for {
		select {
		case b := <-ch:
			b.Reset()
			syncPool.Put(b)
		case <-done:
			return
		}
	}
}

// Put of values without an identity: constants, nil, interfaces.
func odd(x any) {
	syncPool.Put(nil)
	syncPool.Put(x)
	syncPool.Put(1) // want `non-pointer value of type int put into sync.Pool`
	typed.Put(nil)
}

// A pool value that is copied and a pointer to a global pool.
var pp = &syncPool

func viaPointer() {
	b := pp.Get().(*bytes.Buffer)
	b.Reset()
	pp.Put(b)
}

// Put of the address of a global, and Get stored to a global.
var gbuf []byte

func globalAddr() {
	gbuf = syncPool.Get().([]byte)
	syncPool.Put(&gbuf)
}

// A wrapper whose parameter is a package-level variable's address.
func release(b *bytes.Buffer) { b.Reset(); syncPool.Put(b) }

func releaseGlobal() {
	release(cur)
	f := release
	f(cur)
}

// A Get whose result is discarded, and Put inside a recover-only defer.
func discard() {
	syncPool.Get()
	typed.Get()
	defer func() {
		recover()
	}()
}
