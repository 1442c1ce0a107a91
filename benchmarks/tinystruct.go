package benchmarks

import (
	"fmt"
	"io"
)

// tinystruct takes a 16-byte struct, fills it, hands it to a consumer that
// keeps it (so it escapes to the heap) and releases it. Allocating 16
// pointer-free bytes is cheap and leaves the GC almost nothing to do, so a
// pool's bookkeeping has little to win back; the verdict says whether it
// does on the machine at hand (on the machines measured so far a pool round
// trip costs less than the allocation plus its share of GC). stackvalue is
// the case where pooling clearly loses: the same struct, not escaping. Each strategy
// is written out rather than going through source, whose indirect calls
// would be a large part of an operation this small.
var _ = register(&Workload{
	Name:      "tinystruct",
	Doc:       "a 16-byte struct that escapes to the heap: allocation is cheap, does pooling pay?",
	GetsPerOp: 1,
	Metric:    "ns/op",
	Baseline:  "alloc",
	Project:   []string{"pool"},
	Strategies: []Strategy{
		{Name: "alloc", Doc: "new(T) on the heap for every use", New: tinyAlloc},
		{Name: "syncpool", Doc: "sync.Pool of *T", New: tinySyncPool, GivesUp: givesUpSyncPool},
		{Name: "pool", Doc: "pool.Pool[*T]", New: tinyPool},
		{Name: "chan", Doc: "a buffered channel of *T as free list", New: tinyChan, GivesUp: givesUpFreeList},
		{Name: "mutex", Doc: "a mutex-guarded slice of *T as free list", New: tinyMutex, GivesUp: givesUpFreeList + "; one lock shared by every goroutine"},
	},
})

// Point is the tiny struct.
type Point struct{ X, Y int64 }

// tinyConsumer receives each Point; keeping the last one makes the Point
// escape to the heap under every strategy, as it would when handed to
// another function that stores it.
type tinyConsumer struct {
	last *Point
	sum  int64
	out  io.Writer
}

//go:noinline
func (c *tinyConsumer) use(p *Point) {
	c.last = p
	c.sum += p.X ^ p.Y
	if c.out != nil {
		fmt.Fprintf(c.out, "%d %d\n", p.X, p.Y)
	}
}

func fillPoint(p *Point, i int) { p.X, p.Y = int64(i), int64(i)*3+1 }

func tinyAlloc(out io.Writer) Instance {
	c := &tinyConsumer{out: out}
	return Instance{Op: func(i int) {
		p := new(Point)
		fillPoint(p, i)
		c.use(p)
	}, NoReuse: true}
}

// tinyKit: Reset zeroes the Point before it goes back.
var tinyKit = kit[*Point]{
	new:     func() *Point { return new(Point) },
	reset:   func(p *Point) { *p = Point{} },
	maxIdle: 64,
}

// The four pooled strategies below differ only in the concrete type of
// their source; each calls it directly (a static call), which a shared
// generic function would turn into an indirect one through its
// dictionary.

func tinySyncPool(out io.Writer) Instance {
	c, s := &tinyConsumer{out: out}, newSyncSource(tinyKit)
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		c.last = nil
		s.Put(x)
	}, Misses: s.misses.Load}
}

func tinyPool(out io.Writer) Instance {
	c, s := &tinyConsumer{out: out}, newPoolSource(tinyKit, 0)
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		c.last = nil
		s.Put(x)
	}, Misses: s.Misses}
}

func tinyChan(out io.Writer) Instance {
	c, s := &tinyConsumer{out: out}, &chanSource[*Point]{kit: tinyKit, ch: make(chan *Point, tinyKit.maxIdle)}
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		c.last = nil
		s.Put(x)
	}, Misses: s.misses.Load}
}

func tinyMutex(out io.Writer) Instance {
	c, s := &tinyConsumer{out: out}, &mutexSource[*Point]{kit: tinyKit}
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		c.last = nil
		s.Put(x)
	}, Misses: s.misses.Load}
}
