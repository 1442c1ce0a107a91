package crash

import (
	"bytes"
	"iter"
	"sync"

	"github.com/poolkit/pool"
)

// A struct that embeds a pool: promoted methods, and their method values.
type embedded struct {
	sync.Pool
}

type embeddedTyped struct {
	pool.Pool[[]byte]
}

var embT embeddedTyped

var emb embedded

func promoted() {
	x := emb.Pool.Get()
	emb.Pool.Put(x)
	get := emb.Pool.Get
	put := emb.Pool.Put
	put(get())
	y := embT.Get()
	embT.Put(y)
	tget := embT.Get
	embT.Put(tget())
}

// Generic functions over the pooled type and over the pool.
func roundTrip[T any](p *pool.Pool[T]) T {
	v := p.Get()
	p.Put(v)
	get := p.Get
	return get()
}

func roundTripPtr[T any, P interface{ *T }](p *sync.Pool) P {
	v := p.Get().(P)
	p.Put(v)
	return v
}

func instantiate() {
	var p pool.Pool[[]byte]
	_ = roundTrip(&p)
	_ = roundTripPtr[bytes.Buffer](&syncPool)
}

// Range-over-func bodies are synthetic yield functions.
func seq(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func rangeFunc() {
	for range seq(3) {
		b := syncPool.Get().(*bytes.Buffer)
		b.Reset()
		syncPool.Put(b)
		if b.Len() > 0 {
			break
		}
	}
	b := typed.Get()
	for i := range seq(2) {
		if i == 1 {
			typed.Put(b)
			return
		}
	}
}

// Method values of wrappers declared here, through an interface and a
// struct field of func type.
type bufs struct{ p sync.Pool }

func (b *bufs) release(x *bytes.Buffer) { x.Reset(); b.p.Put(x) }

func (b *bufs) acquire() *bytes.Buffer { return b.p.Get().(*bytes.Buffer) }

type ops struct {
	get func() *bytes.Buffer
	put func(*bytes.Buffer)
}

func wrappers(b *bufs) {
	rel := b.release
	acq := b.acquire
	x := acq()
	rel(x)
	o := ops{get: b.acquire, put: b.release}
	y := o.get()
	o.put(y)
	(*bufs).release(b, acq())
}

// A Put in a deferred closure that recovers, re-panics and jumps.
func deferRecover(n int) (err error) {
	b := syncPool.Get().(*bytes.Buffer)
	defer func() {
		r := recover()
		if r != nil {
			syncPool.Put(b)
			panic(r)
		}
	}()
	for i := 0; i < n; i++ {
		if i == 2 {
			goto out
		}
		b.WriteByte('x')
	}
out:
	return nil
}

// Select with a Put in several cases, and labelled continue.
func selectPut(in chan *bytes.Buffer, quit chan bool) {
loop:
	for {
		b := typed.Get()
		select {
		case x := <-in:
			typed.Put(x)
			continue loop
		case <-quit:
			typed.Put(b)
			return
		default:
		}
		typed.Put(b)
	}
}

// Pools in maps of values, pointers to arrays, and a channel of pools.
var poolArr = &[2]pool.Pool[*bytes.Buffer]{}

func poolsAround(ch chan *sync.Pool, m map[string]*pool.Pool[*bytes.Buffer]) {
	x := poolArr[1].Get()
	poolArr[1].Put(x)
	p := <-ch
	p.Put(p.Get())
	if q := m["a"]; q != nil {
		q.Put(q.Get())
	}
}

// Values that are not objects: funcs, channels, structs by value.
func notObjects() {
	syncPool.Put(func() {})
	syncPool.Put(make(chan int))
	syncPool.Put(struct{}{})
	var arr [0]int
	syncPool.Put(arr)
}

// Put of a parameter's address, of a field of a global, and of a value
// loaded from a map.
type state struct{ buf *bytes.Buffer }

var st state

func fields(m map[int]*bytes.Buffer, s []byte) {
	syncPool.Put(st.buf)
	syncPool.Put(m[1])
	syncPool.Put(&s)
	st.buf = nil
}
