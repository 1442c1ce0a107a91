package benchmarks

import (
	"fmt"
	"io"
)

// stackvalue takes the 16-byte Point of tinystruct, fills it and hands it
// to a consumer that reads it but does not keep it. Escape analysis sees
// that the Point does not outlive the operation, so the alloc strategy's
// new(Point) lives on the goroutine's stack: no heap allocation, nothing
// for the GC, nothing a pool could save. Every pool only adds its round
// trip; this is the workload whose verdict is "don't pool". That the
// alloc strategy does not allocate is checked by TestStackValueNoAlloc and
// can be seen with
//
//	go build -gcflags=-m 2>&1 | grep stackvalue.go
//
// which reports "new(Point) does not escape" for stackAlloc.
var _ = register(&Workload{
	Name:      "stackvalue",
	Doc:       "a 16-byte struct that stays on the stack (0 allocs without a pool): pooling only adds work",
	GetsPerOp: 1,
	Metric:    "ns/op",
	Baseline:  "alloc",
	Project:   []string{"pool"},
	Strategies: []Strategy{
		{Name: "alloc", Doc: "new(T) that escape analysis keeps on the stack", New: stackAlloc},
		{Name: "syncpool", Doc: "sync.Pool of *T", New: stackSyncPool, GivesUp: givesUpSyncPool},
		{Name: "pool", Doc: "pool.Pool[*T]", New: stackPool},
		{Name: "chan", Doc: "a buffered channel of *T as free list", New: stackChan, GivesUp: givesUpFreeList},
		{Name: "mutex", Doc: "a mutex-guarded slice of *T as free list", New: stackMutex, GivesUp: givesUpFreeList + "; one lock shared by every goroutine"},
	},
})

// stackConsumer reads each Point without keeping it, so a Point it is
// given does not escape.
type stackConsumer struct {
	sum int64
	out io.Writer
}

//go:noinline
func (c *stackConsumer) use(p *Point) {
	c.sum += p.X ^ p.Y
	if c.out != nil {
		fmt.Fprintf(c.out, "%d %d\n", p.X, p.Y)
	}
}

func stackAlloc(out io.Writer) Instance {
	c := &stackConsumer{out: out}
	return Instance{Op: func(i int) {
		p := new(Point) // does not escape: on the stack
		fillPoint(p, i)
		c.use(p)
	}, NoReuse: true}
}

// The pooled strategies are written out one by one, as in tinystruct, so
// that each calls its source directly.

func stackSyncPool(out io.Writer) Instance {
	c, s := &stackConsumer{out: out}, newSyncSource(tinyKit)
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		s.Put(x)
	}, Misses: s.misses.Load}
}

func stackPool(out io.Writer) Instance {
	c, s := &stackConsumer{out: out}, newPoolSource(tinyKit, 0)
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		s.Put(x)
	}, Misses: s.Misses}
}

func stackChan(out io.Writer) Instance {
	c, s := &stackConsumer{out: out}, &chanSource[*Point]{kit: tinyKit, ch: make(chan *Point, tinyKit.maxIdle)}
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		s.Put(x)
	}, Misses: s.misses.Load}
}

func stackMutex(out io.Writer) Instance {
	c, s := &stackConsumer{out: out}, &mutexSource[*Point]{kit: tinyKit}
	return Instance{Op: func(i int) {
		x := s.Get()
		fillPoint(x, i)
		c.use(x)
		s.Put(x)
	}, Misses: s.misses.Load}
}
